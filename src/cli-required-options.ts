import type { Command, Option } from 'commander';

/**
 * Moves commander's check of required options after its check of unknown options, on
 * `command` and every command under it. Commander checks required options first, so a typo
 * such as `create api --grup web` was refused as "required option '--group <group>' not
 * specified", hiding the unknown `--grup` and its suggestion (`Did you mean --group?`).
 * The options stay required, with the same message; they are checked in a `preAction` hook,
 * which commander runs after refusing unknown options and before the command's own hooks.
 *
 * @example
 * const cli = new Command('opgen').addCommand(new Command('create').requiredOption('--group <group>'));
 * requireOptionsAfterUnknown(cli);
 */
export function requireOptionsAfterUnknown(command: Command): void {
  const required = new Map<Command, Option[]>();
  const visit = (each: Command): void => {
    const options = each.options.filter((option) => option.mandatory);
    for (const option of options) option.makeOptionMandatory(false);
    if (options.length) required.set(each, options);
    each.commands.forEach(visit);
  };
  visit(command);
  command.hook('preAction', (_hooked, action) => {
    for (let each: Command | null = action; each; each = each.parent) {
      const missing = required.get(each)?.find((option) => each!.getOptionValue(option.attributeName()) === undefined);
      if (missing) each.error(`error: required option '${missing.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
    }
  });
}
