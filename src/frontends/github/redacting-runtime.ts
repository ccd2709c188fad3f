import { proxySecrets, redactor } from '../../core/redact.js';
import type { GitHubApi } from './github.js';
import type { ActionRuntime } from './runtime.js';

/**
 * The environment variables that hold credentials in a job: GITHUB_TOKEN when a workflow passes it, the judge's
 * key, and the runner's own tokens for its artifact, cache and OIDC services.
 */
const SECRET_VARIABLES = ['GITHUB_TOKEN', 'OPENAI_API_KEY', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'] as const;

/**
 * The secrets of this run: the `github-token` input, the credential variables of the environment that are set,
 * and the credentials in the proxy variables' URLs.
 */
export function actionSecrets(githubToken: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const given = [githubToken, ...SECRET_VARIABLES.map((name) => env[name] ?? '')].map((secret) => secret.trim()).filter((secret) => secret !== '');
  return [...given, ...proxySecrets(env)];
}

/**
 * The methods that only read: what they send is ids, names and refs, never text the action composed. A method of
 * GitHubApi not named here must be given in `sends` below, or this module does not compile: a new request that
 * carries text cannot slip past the redactor. (getFileAt, listLabelEvents and getPermission: the base branch's
 * policy and its approvals, read.)
 */
type Reads =
  | 'getWorkflowId'
  | 'listSuccessfulPushRuns'
  | 'mergeBase'
  | 'findArtifact'
  | 'downloadArtifact'
  | 'findNewestArtifact'
  | 'listComments'
  | 'authenticatedLogin'
  | 'findPullRequest'
  | 'getPullRequest'
  | 'listOpenIssues'
  | 'getFileAt'
  | 'listLabelEvents'
  | 'getPermission';

/** The API with every text it sends to GitHub (comment and issue bodies, a status's fields) redacted; what it reads is left as read. */
function redactingApi(api: GitHubApi, redact: (text: string) => string): GitHubApi {
  const sends: Pick<GitHubApi, Exclude<keyof GitHubApi, Reads>> = {
    createComment: (issueNumber, body) => api.createComment(issueNumber, redact(body)),
    updateComment: (commentId, body) => api.updateComment(commentId, redact(body)),
    createCommitStatus: (sha, status) =>
      api.createCommitStatus(sha, {
        state: status.state,
        context: redact(status.context),
        description: redact(status.description),
        targetUrl: redact(status.targetUrl),
      }),
    createIssue: (title, body, labels) => api.createIssue(redact(title), redact(body), labels.map(redact)),
    updateIssue: (issueNumber, change) =>
      api.updateIssue(issueNumber, {
        ...change,
        ...(change.title === undefined ? {} : { title: redact(change.title) }),
        ...(change.body === undefined ? {} : { body: redact(change.body) }),
      }),
  };
  // The reads go to the API itself (a class instance's methods included, which a spread would drop).
  return new Proxy(api, { get: (target, key) => (Object.hasOwn(sends, key) ? sends[key as keyof typeof sends] : Reflect.get(target, key)) });
}

/**
 * The runtime with one redactor between the action and everything that leaves its process: log lines, warnings,
 * the failure, outputs, the job summary, report files, and the text the API client sends. The secrets are the
 * given ones and the token the API client is made with; every GitHub-shaped token goes too (src/core/redact.ts).
 * Applied once, at the entry, so that no message built anywhere in the action has to remember it.
 */
export function redactingRuntime(runtime: ActionRuntime, secrets: readonly string[]): ActionRuntime {
  let known = [...secrets];
  let redact = redactor(known);
  return {
    getInput: (name) => runtime.getInput(name),
    env: runtime.env,
    context: runtime.context,
    createApi: (options) => {
      if (!known.includes(options.token)) redact = redactor((known = [...known, options.token]));
      return redactingApi(runtime.createApi(options), (text) => redact(text));
    },
    info: (message) => runtime.info(redact(message)),
    warning: (message, title) => runtime.warning(redact(message), title === undefined ? undefined : redact(title)),
    setOutput: (name, value) => runtime.setOutput(name, redact(value)),
    setFailed: (message) => runtime.setFailed(redact(message)),
    writeSummary: (markdown) => runtime.writeSummary(redact(markdown)),
    writeReport: (file, text) => runtime.writeReport(file, redact(text)),
    now: () => runtime.now(),
    ...(runtime.readerEntry === undefined ? {} : { readerEntry: runtime.readerEntry }),
  };
}
