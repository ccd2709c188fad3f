import { checkBypass, getProxyUrl } from '@actions/http-client/lib/proxy';
import type * as Undici from 'undici';

/**
 * Every request rag-gate sends (the GitHub API, the artifact's redirect to blob storage, the judge, embeddings)
 * goes through `proxyFetch`: this module alone decides, for each request and each redirect it follows, whether it
 * goes straight to its host or through the proxy the environment names. The rule is the GitHub Actions toolkit's
 * own (@actions/http-client's getProxyUrl, which getOctokit's defaults use): https_proxy or HTTPS_PROXY for https
 * URLs, http_proxy or HTTP_PROXY for http ones, unless no_proxy (or NO_PROXY) lists the host, one of its parent
 * domains, host:port, or `*`; loopback addresses never go through a proxy. Credentials in the proxy's URL are sent
 * as Proxy-Authorization. http URLs are forwarded by the proxy, https ones tunnelled (CONNECT).
 *
 * undici is npm's copy, its fetch with its dispatchers (Node's built-in fetch is another copy of undici, whose
 * version varies with Node's: its dispatchers and npm's do not mix). It is loaded on the first request: a run that
 * sends none does not pay for it.
 */

let undici: Promise<typeof Undici> | undefined;
let router: Promise<Undici.Dispatcher> | undefined;
const loadUndici = () => (undici ??= import('undici'));

/** The proxy variables, in the order the rule reads them, for an http or https URL. */
function proxyVariables(protocol: string): readonly string[] {
  return protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
}

/** A proxy's URL as it may be shown: its credentials blanked. */
export function shownProxy(proxy: URL): string {
  const shown = new URL(proxy.href);
  if (shown.username !== '' || shown.password !== '') {
    shown.username = '***';
    shown.password = '';
  }
  return shown.href.replace(/\/$/, '');
}

/** A request that got no answer (no connection, or the proxy refused it), named with its host and its route. */
export class ConnectionError extends Error {
  override name = 'ConnectionError';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
  }
}

/**
 * The proxy for this URL, or null to go straight. A proxy variable that applies but is no http(s) URL fails the
 * request (getProxyUrl would go straight for some), naming the variable without quoting it: it may hold a password.
 */
function proxyFor(url: URL): URL | null {
  const variables = proxyVariables(url.protocol);
  const named = variables.find((name) => (process.env[name] ?? '') !== '');
  if (named === undefined || checkBypass(url)) return null;
  let proxy: URL | undefined;
  try {
    proxy = getProxyUrl(url);
  } catch {
    proxy = undefined;
  }
  if (proxy === undefined || (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') || proxy.hostname === '')
    throw new Error(`${named} is not an http or https URL; use for example http://proxy.example.com:3128`);
  return proxy;
}

/** As @actions/http-client tells a loopback address, which it never sends through a proxy. */
const isLoopback = (hostname: string) => /^(localhost|127\.|\[(::1|0:0:0:0:0:0:0:1)\])/i.test(hostname);

/** Which way a request to `url` went, in words for an error. */
function route(url: URL, proxy: URL | null): string {
  const variables = proxyVariables(url.protocol);
  if (proxy !== null) return `through the proxy ${shownProxy(proxy)} (${variables.join(' or ')})`;
  const named = variables.find((name) => (process.env[name] ?? '') !== '');
  if (named === undefined) return `directly: ${variables.join(' and ')} are not set`;
  if (isLoopback(url.hostname)) return `directly: a loopback address never goes through the proxy of ${named}`;
  return `directly: no_proxy (or NO_PROXY) exempts ${url.hostname} from the proxy of ${named}`;
}

/** The innermost cause's message: undici's reason under its generic "fetch failed". */
function reason(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return inner instanceof Error ? inner.message : String(error);
}

/** Proxy-Authorization for a proxy URL's credentials (percent-decoded by getProxyUrl), if it has any. */
function proxyToken(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  return `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}`;
}

/** One dispatcher that sends each request (each redirect too) the way `proxyFor` says: one agent per proxy. */
async function createRouter(): Promise<Undici.Dispatcher> {
  const { Agent, Dispatcher, ProxyAgent } = await loadUndici();
  const direct = new Agent();
  const proxies = new Map<string, Undici.Dispatcher>();
  const agentFor = (proxy: URL): Undici.Dispatcher => {
    const key = proxy.href;
    let agent = proxies.get(key);
    if (agent === undefined) {
      const uri = new URL(proxy.origin);
      const token = proxyToken(proxy);
      // proxyTunnel false: an http URL is forwarded by the proxy (it sees the request); https is tunnelled.
      agent = new ProxyAgent({ uri: uri.href, proxyTunnel: false, ...(token === undefined ? {} : { token }) });
      proxies.set(key, agent);
    }
    return agent;
  };
  class Router extends Dispatcher {
    override dispatch(options: Undici.Dispatcher.DispatchOptions, handler: Undici.Dispatcher.DispatchHandlers): boolean {
      const proxy = proxyFor(new URL(String(options.origin)));
      return (proxy === null ? direct : agentFor(proxy)).dispatch(options, handler);
    }
  }
  return new Router();
}

/** fetch through the proxy the environment names for each URL (see above); a failed connection says which way it went. */
export const proxyFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const proxy = proxyFor(url);
  const { fetch: undiciFetch } = await loadUndici();
  const dispatcher = await (router ??= createRouter());
  try {
    return (await undiciFetch(input as Undici.RequestInfo, { ...(init as Undici.RequestInit), dispatcher })) as unknown as Response;
  } catch (error) {
    if (init?.signal?.aborted === true || !(error instanceof TypeError)) throw error;
    throw new ConnectionError(`cannot reach ${url.host} ${route(url, proxy)}: ${reason(error)}`, { cause: error });
  }
};
