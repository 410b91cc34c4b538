/**
 * The English inflection data kubebuilder and controller-gen pluralize kinds with: the
 * dictionary and suffix rules of gobuffalo/flect v1 (its `Pluralize`), restated as data.
 * Inputs are always lower-case here, so flect's upper-case-only entries (`ID`, `S`) are left
 * out: they can never match.
 */

/** A dictionary word: `[singular, plural, flags]`. */
export type DictionaryWord = readonly [singular: string, plural: string, flags?: WordFlags];

export interface WordFlags {
  /** Another accepted plural; it is recognised as already plural. */
  alternative?: string;
  /** The plural is not recognised as already plural (it belongs to another word too). */
  unidirectional?: boolean;
  /** Only the whole word matches, never a compound ending in it. */
  exact?: boolean;
}

/** In flect's order: later entries win over earlier ones when both are suffixes of a word. */
export const dictionary: readonly DictionaryWord[] = [
  // identical singular and plural
  ['aircraft', 'aircraft'],
  ['beef', 'beef', { alternative: 'beefs' }],
  ['bison', 'bison'],
  ['blues', 'blues', { unidirectional: true }],
  ['chassis', 'chassis'],
  ['deer', 'deer'],
  ['fish', 'fish', { alternative: 'fishes' }],
  ['moose', 'moose'],
  ['police', 'police'],
  ['salmon', 'salmon', { alternative: 'salmons' }],
  ['series', 'series'],
  ['sheep', 'sheep'],
  ['shrimp', 'shrimp', { alternative: 'shrimps' }],
  ['species', 'species'],
  ['swine', 'swine', { alternative: 'swines' }],
  ['trout', 'trout', { alternative: 'trouts' }],
  ['tuna', 'tuna', { alternative: 'tunas' }],
  ['you', 'you'],
  // -en plurals
  ['child', 'children'],
  ['ox', 'oxen', { exact: true }],
  // vowel-change plurals
  ['foot', 'feet'],
  ['goose', 'geese'],
  ['man', 'men'],
  ['human', 'humans'],
  ['louse', 'lice', { exact: true }],
  ['mouse', 'mice'],
  ['tooth', 'teeth'],
  ['woman', 'women'],
  ['die', 'dice', { exact: true }],
  ['person', 'people'],
  // French -u
  ['adieu', 'adieux', { alternative: 'adieus' }],
  ['fabliau', 'fabliaux'],
  ['bureau', 'bureaus', { alternative: 'bureaux' }],
  // Greek -on → -a
  ['criterion', 'criteria'],
  ['ganglion', 'ganglia', { alternative: 'ganglions' }],
  ['lexicon', 'lexica', { alternative: 'lexicons' }],
  ['mitochondrion', 'mitochondria', { alternative: 'mitochondrions' }],
  ['noumenon', 'noumena'],
  ['phenomenon', 'phenomena'],
  ['taxon', 'taxa'],
  // Latin -um → -a
  ['media', 'media'],
  ['medium', 'media', { alternative: 'mediums', unidirectional: true }],
  ['stadium', 'stadiums', { alternative: 'stadia' }],
  ['aquarium', 'aquaria', { alternative: 'aquariums' }],
  ['auditorium', 'auditoria', { alternative: 'auditoriums' }],
  ['symposium', 'symposia', { alternative: 'symposiums' }],
  ['curriculum', 'curriculums', { alternative: 'curricula' }],
  ['quota', 'quotas'],
  // Latin -us → -i / -era
  ['alumnus', 'alumni', { alternative: 'alumnuses' }],
  ['bacillus', 'bacilli'],
  ['cactus', 'cacti', { alternative: 'cactuses' }],
  ['coccus', 'cocci'],
  ['focus', 'foci', { alternative: 'focuses' }],
  ['locus', 'loci', { alternative: 'locuses' }],
  ['nucleus', 'nuclei', { alternative: 'nucleuses' }],
  ['octopus', 'octupuses', { alternative: 'octopi' }],
  ['radius', 'radii', { alternative: 'radiuses' }],
  ['syllabus', 'syllabi'],
  ['corpus', 'corpora', { alternative: 'corpuses' }],
  ['genus', 'genera'],
  // Latin -a → -ae
  ['alumna', 'alumnae'],
  ['vertebra', 'vertebrae'],
  ['differentia', 'differentiae'],
  ['minutia', 'minutiae'],
  ['vita', 'vitae'],
  ['larva', 'larvae'],
  ['postcava', 'postcavae'],
  ['praecava', 'praecavae'],
  ['uva', 'uvae'],
  // Latin -ex / -ix → -ices
  ['apex', 'apices', { alternative: 'apexes' }],
  ['codex', 'codices', { alternative: 'codexes' }],
  ['index', 'indices', { alternative: 'indexes' }],
  ['latex', 'latices', { alternative: 'latexes' }],
  ['vertex', 'vertices', { alternative: 'vertexes' }],
  ['vortex', 'vortices', { alternative: 'vortexes' }],
  ['appendix', 'appendices', { alternative: 'appendixes' }],
  ['radix', 'radices', { alternative: 'radixes' }],
  ['helix', 'helices', { alternative: 'helixes' }],
  // Latin -is → -es
  ['axis', 'axes', { exact: true }],
  ['crisis', 'crises'],
  ['ellipsis', 'ellipses', { unidirectional: true }],
  ['genesis', 'geneses'],
  ['oasis', 'oases'],
  ['thesis', 'theses'],
  ['testis', 'testes'],
  ['base', 'bases'],
  ['basis', 'bases', { unidirectional: true }],
  ['alias', 'aliases', { exact: true }],
  ['vedalia', 'vedalias'],
  // words ending in -ch, -o, -s, -sh, -x, -z that would clash with the suffix rules
  ['use', 'uses', { exact: true }],
  ['abuse', 'abuses'],
  ['cause', 'causes'],
  ['clause', 'clauses'],
  ['cruse', 'cruses'],
  ['excuse', 'excuses'],
  ['fuse', 'fuses'],
  ['house', 'houses'],
  ['misuse', 'misuses'],
  ['muse', 'muses'],
  ['pause', 'pauses'],
  ['ache', 'aches'],
  ['topaz', 'topazes'],
  ['buffalo', 'buffaloes', { alternative: 'buffalos' }],
  ['potato', 'potatoes'],
  ['tomato', 'tomatoes'],
  // uncountable
  ['equipment', 'equipment'],
  ['information', 'information'],
  ['jeans', 'jeans'],
  ['money', 'money'],
  ['news', 'news'],
  ['rice', 'rice'],
  // exceptions to -f → -ves
  ['dwarf', 'dwarfs', { alternative: 'dwarves' }],
  ['hoof', 'hoofs', { alternative: 'hooves' }],
  ['thief', 'thieves'],
  ['chive', 'chives'],
  ['hive', 'hives'],
  ['move', 'moves'],
  // exceptions to -y → -ies
  ['movie', 'movies'],
  ['cookie', 'cookies'],
  // exceptions to -um → -a
  ['pretorium', 'pretoriums'],
  ['agenda', 'agendas'],
  ['formula', 'formulas', { alternative: 'formulae' }],
  // exceptions to -o → -oes
  ['shoe', 'shoes'],
  ['toe', 'toes', { exact: true }],
  ['graffiti', 'graffiti'],
];

/** `[singular suffix, plural suffix]`, highest priority first. */
export const suffixRules: readonly (readonly [string, string])[] = [
  // -f / -fe → -ves
  ['tive', 'tives'],
  ['eaf', 'eaves'],
  ['oaf', 'oaves'],
  ['afe', 'aves'],
  ['arf', 'arves'],
  ['rfe', 'rves'],
  ['rf', 'rves'],
  ['lf', 'lves'],
  ['fe', 'ves'],
  // consonant + y → -ies
  ['ay', 'ays'],
  ['ey', 'eys'],
  ['oy', 'oys'],
  ['quy', 'quies'],
  ['uy', 'uys'],
  ['y', 'ies'],
  // French -eau
  ['eau', 'eaux'],
  // Latin -a → -ae (flect maps all five to -bulae)
  ['bula', 'bulae'],
  ['dula', 'bulae'],
  ['lula', 'bulae'],
  ['nula', 'bulae'],
  ['vula', 'bulae'],
  // Greek -hedron
  ['hedron', 'hedra'],
  // Latin -um → -a
  ['ium', 'ia'],
  ['seum', 'seums'],
  ['eum', 'ea'],
  ['oum', 'oa'],
  ['stracum', 'straca'],
  ['dum', 'da'],
  ['elum', 'ela'],
  ['ilum', 'ila'],
  ['olum', 'ola'],
  ['ulum', 'ula'],
  ['llum', 'lla'],
  ['ylum', 'yla'],
  ['imum', 'ima'],
  ['ernum', 'erna'],
  ['gnum', 'gna'],
  ['brum', 'bra'],
  ['crum', 'cra'],
  ['terum', 'tera'],
  ['serum', 'sera'],
  ['trum', 'tra'],
  ['antum', 'anta'],
  ['atum', 'ata'],
  ['entum', 'enta'],
  ['etum', 'eta'],
  ['itum', 'ita'],
  ['otum', 'ota'],
  ['utum', 'uta'],
  ['ctum', 'cta'],
  ['ovum', 'ova'],
  // Latin -trix
  ['trix', 'trices'],
  // Latin -is → -es
  ['iasis', 'iases'],
  ['mesis', 'meses'],
  ['kinesis', 'kineses'],
  ['resis', 'reses'],
  ['gnosis', 'gnoses'],
  ['opsis', 'opses'],
  ['ysis', 'yses'],
  // sibilants and -o
  ['ouse', 'ouses'],
  ['lause', 'lauses'],
  ['us', 'uses'],
  ['ch', 'ches'],
  ['io', 'ios'],
  ['sh', 'shes'],
  ['ss', 'sses'],
  ['ez', 'ezzes'],
  ['iz', 'izzes'],
  ['tz', 'tzes'],
  ['zz', 'zzes'],
  ['ano', 'anos'],
  ['lo', 'los'],
  ['to', 'tos'],
  ['oo', 'oos'],
  ['o', 'oes'],
  ['x', 'xes'],
];
