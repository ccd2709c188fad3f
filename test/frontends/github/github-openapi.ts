/**
 * GitHub's own OpenAPI description of its REST API (@octokit/openapi), to hold the fake GitHub server to it: every
 * request the action sends and every response the fake returns is checked against the operation it belongs to,
 * so the fake cannot quietly agree with a bug of ours.
 *
 * Only the operations the fake serves, and what they reference, verbatim: scripts/extract-github-openapi.mjs writes
 * them into test/fixtures/github-openapi/, so that the tests need not install the 385 MB package. A route missing
 * from it is "no such operation", so a new route fails until it is extracted too.
 *
 * Ajv in the fake rather than a validating proxy (Prism): no extra process and port per test, no install-time
 * telemetry, and the description is parsed once per test file instead of once per server.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

interface Parameter {
  readonly name: string;
  readonly description?: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly schema?: { readonly type?: string };
}
type Reference = { readonly $ref: string };
interface Operation {
  readonly operationId: string;
  readonly parameters?: readonly (Parameter | Reference)[];
  readonly requestBody?: { readonly required?: boolean; readonly content: Record<string, unknown> };
  readonly responses: Record<string, { readonly content?: Record<string, unknown> } | Reference>;
}
interface Description {
  readonly paths: Record<string, Record<string, Operation> & { parameters?: readonly (Parameter | Reference)[] }>;
  readonly components: {
    readonly parameters: Record<string, Parameter>;
    readonly responses: Record<string, { readonly content?: Record<string, unknown> }>;
    readonly examples: Record<string, { readonly value: unknown }>;
  };
}

const DESCRIPTION_ID = 'api.github.com';
const DESCRIPTION_FILE = new URL('../../fixtures/github-openapi/api.github.com.subset.json', import.meta.url);
const JSON_TYPE = 'application/json';
const EXTRACTOR = 'scripts/extract-github-openapi.mjs';
/** An error status the operation does not list (a 5xx, a rate limit) still has GitHub's error body. */
const ERROR_BODY = '#/components/schemas/basic-error';

export interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly requestBody: unknown;
  readonly status: number;
  /** The JSON body sent, or undefined for none (a redirect). */
  readonly responseBody: unknown;
  /** The body was a file's raw bytes (the raw media type), which the description does not model. */
  readonly raw?: boolean;
}

/**
 * A date query such as `created`: its schema says date-time, but its own description (and GitHub) take the search
 * syntax for dates, which the action uses: `>=2026-11-01T00:00:00Z`, or a range `from..to`.
 */
const SEARCH_DATE_SYNTAX = 'understanding-the-search-syntax#query-for-dates';
const SEARCH_DATE = (() => {
  const date = String.raw`\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2}))?`;
  return new RegExp(`^(?:(?:>=|<=|>|<)?${date}|${date}\\.\\.${date}|\\*\\.\\.${date}|${date}\\.\\.\\*)$`);
})();

/** A pointer into the description, for a $ref. */
const pointer = (...parts: string[]) => `${DESCRIPTION_ID}#/${parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/**
 * OpenAPI 3.0 lets `nullable: true` stand beside `anyOf`/`allOf` without a `type`, which Ajv's `nullable` keyword
 * refuses to compile; such a schema says "this, or null", so it is written that way.
 */
function withTypelessNullables(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withTypelessNullables);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, withTypelessNullables(item)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  if (object.nullable !== true || 'type' in object) return object;
  const schema = { ...object };
  delete schema.nullable;
  return { anyOf: [schema, { type: 'null' }] };
}

class GitHubOpenApi {
  private readonly ajv: Ajv;
  private readonly routes: { readonly template: string; readonly pattern: RegExp; readonly literalLength: number }[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly description: Description) {
    // strict off: the description uses OpenAPI's own keywords (example, discriminator, x-github); nullable is Ajv's.
    this.ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    addFormatsPlugin.default(this.ajv);
    this.ajv.addSchema(withTypelessNullables(description) as object, DESCRIPTION_ID);
    // A literal segment beats a parameter: /pulls/{pull_number} must not take /pulls/comments.
    this.routes = Object.keys(description.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`),
        literalLength: template.replace(/\{[^}]+\}/g, '').length,
      }))
      .sort((a, b) => b.literalLength - a.literalLength);
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }

  private problemsOf(ref: string, value: unknown, what: string): string[] {
    const validate = this.validator(ref);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${what}${error.instancePath || ''}: ${error.message ?? 'invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
    );
  }

  private parameter(parameter: Parameter | Reference): Parameter {
    return '$ref' in parameter ? this.description.components.parameters[parameter.$ref.split('/').pop()!]! : parameter;
  }

  /** What in this exchange GitHub's description does not allow; empty when it all conforms. */
  check(exchange: Exchange): string[] {
    const method = exchange.method.toLowerCase();
    const route = this.routes.find((candidate) => candidate.pattern.test(exchange.path) && this.description.paths[candidate.template]![method] !== undefined);
    const where = `${exchange.method} ${exchange.path}`;
    if (route === undefined) return [`${where}: no such operation in GitHub's API description (as extracted: a new route joins ${EXTRACTOR}'s ROUTES)`];
    const pathItem = this.description.paths[route.template]!;
    const operation = pathItem[method]!;
    const at = (...parts: string[]) => pointer('paths', route.template, method, ...parts);
    const problems: string[] = [];

    const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => this.parameter(parameter));
    const pathValues = exchange.path.match(route.pattern)!.slice(1);
    const pathParameters = Object.fromEntries([...route.template.matchAll(/\{([^}]+)\}/g)].map((name, index) => [name[1]!, pathValues[index]!]));
    for (const parameter of parameters.filter((p) => p.in === 'path' || p.in === 'query')) {
      const value = parameter.in === 'path' ? pathParameters[parameter.name] : exchange.query[parameter.name];
      if (value === undefined) {
        if (parameter.required === true) problems.push(`${where}: ${parameter.in} parameter ${parameter.name} is required`);
        continue;
      }
      if (parameter.description?.includes(SEARCH_DATE_SYNTAX)) {
        if (!SEARCH_DATE.test(value)) problems.push(`${where}: ${parameter.in} parameter ${parameter.name}=${value}: not a date in the search syntax`);
        continue;
      }
      // Parameters arrive as text: typed as the schema says before validation.
      const type = parameter.schema?.type;
      const typed =
        type === 'integer' || type === 'number'
          ? /^-?\d+(\.\d+)?$/.test(value)
            ? Number(value)
            : value
          : type === 'boolean'
            ? value === 'true'
              ? true
              : value === 'false'
                ? false
                : value
            : value;
      // Ajv caches a compiled schema by its object.
      const validate = this.ajv.compile(parameter.schema ?? {});
      if (!validate(typed)) problems.push(`${where}: ${parameter.in} parameter ${parameter.name}=${value}: ${this.ajv.errorsText(validate.errors)}`);
    }
    // GitHub ignores an unknown query parameter, so a misspelt one would silently do nothing.
    for (const name of Object.keys(exchange.query)) {
      if (!parameters.some((p) => p.in === 'query' && p.name === name))
        problems.push(`${where}: query parameter ${name} is not one of ${operation.operationId}'s`);
    }

    if (exchange.requestBody === undefined) {
      if (operation.requestBody?.required === true) problems.push(`${where}: a request body is required`);
    } else if (operation.requestBody?.content[JSON_TYPE] === undefined) {
      problems.push(`${where}: ${operation.operationId} takes no JSON request body`);
    } else {
      problems.push(...this.problemsOf(at('requestBody', 'content', JSON_TYPE, 'schema'), exchange.requestBody, `${where}: request body`));
    }

    if (exchange.raw === true) return problems;
    const described = operation.responses[String(exchange.status)];
    const responseName = described !== undefined && '$ref' in described ? described.$ref.split('/').pop()! : undefined;
    const response = responseName === undefined ? described : this.description.components.responses[responseName];
    const responseSchema =
      responseName === undefined
        ? at('responses', String(exchange.status), 'content', JSON_TYPE, 'schema')
        : pointer('components', 'responses', responseName, 'content', JSON_TYPE, 'schema');
    if (response === undefined || '$ref' in response) {
      if (exchange.status < 400) return [...problems, `${where}: status ${exchange.status} is not a response of ${operation.operationId}`];
      return [...problems, ...this.problemsOf(`${DESCRIPTION_ID}${ERROR_BODY}`, exchange.responseBody, `${where}: ${exchange.status} response body`)];
    }
    if (response.content?.[JSON_TYPE] === undefined) {
      if (exchange.responseBody !== undefined) problems.push(`${where}: a ${exchange.status} of ${operation.operationId} has no body`);
      return problems;
    }
    return [...problems, ...this.problemsOf(responseSchema, exchange.responseBody, `${where}: ${exchange.status} response body`)];
  }

  /** A copy of one of the description's examples, GitHub's own sample of an object. */
  example<T = Record<string, unknown>>(name: string): T {
    const example = this.description.components.examples[name];
    if (example === undefined) throw new Error(`GitHub's API description has no example ${name} (as extracted: a new one joins ${EXTRACTOR}'s EXAMPLES)`);
    return structuredClone(example.value) as T;
  }
}

let loaded: GitHubOpenApi | undefined;

/** The extracted part of GitHub's REST API description, parsed once per test file. */
export function githubOpenApi(): GitHubOpenApi {
  loaded ??= new GitHubOpenApi(JSON.parse(readFileSync(DESCRIPTION_FILE, 'utf8')) as Description);
  return loaded;
}
