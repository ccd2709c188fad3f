import { type Document, isAlias, isCollection, isPair, type Node } from 'yaml';
import { grouped } from '../core/grouped.js';

/**
 * Bounds of a YAML file rag-gate reads (rag-gate.yml): far above any real one, which holds a few dozen settings in a
 * few kilobytes, and far below what exhausts the job. Past them the file is bad input, named by line, before
 * anything recursive (yaml's toJS, the schema) touches it: a "billion laughs" alias bomb, a nesting that overflows
 * the stack, a document that takes seconds to parse.
 */
export const MAX_YAML_BYTES = 1024 * 1024;
export const MAX_YAML_DEPTH = 32;
/** Nodes (keys, values and list items), each alias counted as the nodes it stands for. */
export const MAX_YAML_NODES = 10_000;

export interface YamlBoundProblem {
  readonly line: number | undefined;
  readonly message: string;
}

/** The line on which a text longer than MAX_YAML_BYTES passes it, or null when it does not. */
export function lineOverSize(bytes: Uint8Array): number | null {
  if (bytes.length <= MAX_YAML_BYTES) return null;
  let line = 1;
  for (let i = 0; i < MAX_YAML_BYTES; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

export const OVER_SIZE_MESSAGE = `is over 1 MiB (${grouped(MAX_YAML_BYTES)} bytes), the most a config file may hold (a real one holds a few kB); it passes that on this line`;

/** What a node stands for once its aliases are expanded: how deep it goes and how many nodes it holds. */
interface Extent {
  readonly depth: number;
  readonly nodes: number;
}

/** The nodes directly inside a node: a map's keys and values, a list's items. */
function children(node: Node): Node[] {
  if (!isCollection(node)) return [];
  const items: Node[] = [];
  for (const item of node.items) {
    if (isPair(item)) {
      if (item.key !== null && typeof item.key === 'object') items.push(item.key as Node);
      if (item.value !== null && typeof item.value === 'object') items.push(item.value as Node);
    } else items.push(item as Node);
  }
  return items;
}

/**
 * The first node past a bound, with aliases expanded as toJS would expand them, or null. Walks with a stack of its
 * own, since the point is a nesting too deep for recursion; each alias resolves to the latest anchor of its name
 * before it, in one pass, where yaml's Alias.resolve searches the document for each.
 */
export function yamlBoundProblem(document: Document, lineOf: (node: Node) => number | undefined): YamlBoundProblem | null {
  const root = document.contents;
  if (root === null) return null;
  const anchors = new Map<string, Node>();
  const extents = new Map<Node, Extent>();
  const stack: { node: Node; depth: number; entered: boolean }[] = [{ node: root, depth: 1, entered: false }];
  let seen = 0;
  const problem = (node: Node, message: string) => ({ line: lineOf(node), message });
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const { node, depth } = top;
    if (!top.entered) {
      top.entered = true;
      if (depth > MAX_YAML_DEPTH) return problem(node, `nests more than ${MAX_YAML_DEPTH} levels deep; a config file needs 5`);
      if (++seen > MAX_YAML_NODES) return problem(node, `holds more than ${grouped(MAX_YAML_NODES)} values; a config file needs a few dozen`);
      if (isAlias(node)) continue;
      if (node.anchor !== undefined) anchors.set(node.anchor, node);
      // Reversed, so that they come off the stack in the document's order, as anchors must be met.
      for (const child of children(node).reverse()) stack.push({ node: child, depth: depth + 1, entered: false });
      continue;
    }
    stack.pop();
    let extent: Extent;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === undefined) return problem(node, `the alias *${node.source} has no anchor &${node.source} before it`);
      const expanded = extents.get(target);
      if (expanded === undefined) return problem(node, `the alias *${node.source} is inside the node it names, which would never end`);
      extent = expanded;
    } else {
      const inner = children(node).map((child) => extents.get(child)!);
      extent = { depth: 1 + Math.max(0, ...inner.map((e) => e.depth)), nodes: 1 + inner.reduce((sum, e) => sum + e.nodes, 0) };
    }
    if (depth - 1 + extent.depth > MAX_YAML_DEPTH)
      return problem(node, `with its aliases expanded, nests more than ${MAX_YAML_DEPTH} levels deep; a config file needs 5`);
    if (extent.nodes > MAX_YAML_NODES)
      return problem(node, `with its aliases expanded, holds more than ${grouped(MAX_YAML_NODES)} values (an alias bomb?); a config file needs a few dozen`);
    extents.set(node, extent);
  }
  return null;
}
