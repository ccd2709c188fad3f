// An ESLint rule: no call of the code under test (an import from src/, or a function of the test file that calls
// one) while tests are collected. Stryker switches a mutant on per test, so a value computed in a `describe` body
// (at collection) comes from the unmutated code and escapes every mutant.

const FUNCTIONS = new Set(['FunctionExpression', 'ArrowFunctionExpression', 'FunctionDeclaration']);

/** Names bound by imports from the sources (a path through `src/`). */
function importedFromSources(program) {
  const names = new Set();
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration' || statement.importKind === 'type' || !/(^|\/)src\//.test(statement.source.value)) continue;
    for (const specifier of statement.specifiers) if (specifier.importKind !== 'type') names.add(specifier.local.name);
  }
  return names;
}

/** The module's own functions, by name: declarations and `const f = (…) => …` at the top level. */
function localFunctions(program) {
  const functions = new Map();
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type === 'FunctionDeclaration' && declaration.id) functions.set(declaration.id.name, declaration);
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations) {
      if (declarator.id.type === 'Identifier' && FUNCTIONS.has(declarator.init?.type)) functions.set(declarator.id.name, declarator.init);
    }
  }
  return functions;
}

/** Every name called (or constructed) anywhere inside `node`. */
function calledNames(node, visitorKeys) {
  const names = new Set();
  const visit = (current) => {
    if ((current.type === 'CallExpression' || current.type === 'NewExpression') && calleeRoot(current.callee) !== null) names.add(calleeRoot(current.callee));
    for (const key of visitorKeys[current.type] ?? []) {
      const child = current[key];
      for (const item of Array.isArray(child) ? child : [child]) if (item && typeof item.type === 'string') visit(item);
    }
  };
  visit(node);
  return names;
}

/** The sources' names, and the module's functions that call them (directly or through one another). */
function reachingSources(program, visitorKeys) {
  const names = importedFromSources(program);
  const functions = [...localFunctions(program)].map(([name, node]) => [name, calledNames(node, visitorKeys)]);
  for (let grown = true; grown;) {
    grown = false;
    for (const [name, calls] of functions) {
      if (names.has(name) || ![...calls].some((called) => names.has(called))) continue;
      names.add(name);
      grown = true;
    }
  }
  return names;
}

/** The identifier a call is made through: `f()`, `new F()`, `ns.f()`, `Class.method()`. */
function calleeRoot(callee) {
  let node = callee;
  while (node.type === 'MemberExpression') node = node.object;
  return node.type === 'Identifier' ? node.name : null;
}

/** Whether `call` is `describe(…)`, `describe.each(…)(…)`, `describe.skip(…)` and the like. */
function isDescribe(call) {
  let callee = call.callee;
  if (callee.type === 'CallExpression') callee = callee.callee;
  return calleeRoot(callee) === 'describe';
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'calls of the code under test in a describe body, which run before any mutant is switched on' },
    messages: {
      atCollection:
        '{{name}} is called while tests are collected (in a describe body): a mutant cannot reach the value. Compute it inside the test, or in beforeEach.',
    },
    schema: [],
  },
  create(context) {
    let sources = new Set();
    const check = (node) => {
      const name = calleeRoot(node.callee);
      if (name === null || !sources.has(name)) return;
      const ancestors = context.sourceCode.getAncestors(node);
      for (let i = ancestors.length - 1; i >= 0; i--) {
        if (!FUNCTIONS.has(ancestors[i].type)) continue;
        const parent = ancestors[i - 1];
        if (parent?.type === 'CallExpression' && parent.arguments.includes(ancestors[i]) && isDescribe(parent))
          context.report({ node, messageId: 'atCollection', data: { name } });
        return;
      }
    };
    return {
      Program(program) {
        sources = reachingSources(program, context.sourceCode.visitorKeys);
      },
      CallExpression: check,
      NewExpression: check,
    };
  },
};
