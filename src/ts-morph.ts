/**
 * ts-morph's values, loaded with require() through the compile cache. ts-morph is CommonJS,
 * and an ES module import of it makes Node scan its 13 MB (with TypeScript) for export names
 * on every run, about 65 ms. Types still come from `import type … from 'ts-morph'`.
 *
 * @module
 */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { loadCompiled } from './compile-cache.js';

// ts-morph's entry point, the package it requires and the TypeScript bundle that one requires.
loadCompiled(import.meta.filename, ['ts-morph', '@ts-morph/common', './typescript']);
const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;

export const { Node, Project, SyntaxKind, createWrappedNode, ts } = tsMorph;
export type Node<T extends TsMorph.ts.Node = TsMorph.ts.Node> = TsMorph.Node<T>;
export type Project = TsMorph.Project;
export type SyntaxKind = TsMorph.SyntaxKind;
export type CommentRange = TsMorph.ts.CommentRange;
export type Diagnostic = TsMorph.ts.Diagnostic;
