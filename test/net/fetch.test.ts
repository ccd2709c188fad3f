import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, proxyFetch, shownProxy } from '../../src/net/fetch.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

interface Seen {
  readonly path: string;
  readonly remotePort: number;
  readonly proxyAuthorization: string | undefined;
}

/** A loopback server that answers 200 with its path, or redirects `/go?to=URL` there; it records who asked. */
async function startServer(): Promise<{ port: number; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    seen.push({ path: url.pathname, remotePort: request.socket.remotePort ?? 0, proxyAuthorization: request.headers['proxy-authorization'] });
    const to = url.searchParams.get('to');
    if (to !== null) response.writeHead(302, { location: to, 'content-length': '0' }).end();
    else response.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${url.pathname}`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { port: (server.address() as AddressInfo).port, seen, server };
}

const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'];

let proxy: TestProxy;
let target: Awaited<ReturnType<typeof startServer>>;

beforeEach(async () => {
  proxy = await startProxy();
  target = await startServer();
  // Whatever the machine's environment says, each test sets its own.
  for (const name of PROXY_VARIABLES) vi.stubEnv(name, undefined);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await proxy.close();
  await new Promise<void>((done) => {
    target.server.closeAllConnections();
    target.server.close(() => done());
  });
});

const text = async (url: string) => (await proxyFetch(url)).text();
const requests = () => proxy.log.map((entry) => entry.request);

describe('proxyFetch: the proxy the environment names', () => {
  it('sends an http request through http_proxy, with its credentials, to a host only the proxy resolves', async () => {
    vi.stubEnv('http_proxy', proxy.url);
    expect(await text(`http://api.invalid:${target.port}/one`)).toBe('hello from /one');
    expect(proxy.log).toEqual([{ request: `GET http://api.invalid:${target.port}/one`, authorized: true }]);
    // It arrived on the proxy's connection, and the proxy's credentials went no further.
    expect(target.seen).toHaveLength(1);
    expect(proxy.upstreamPorts.has(target.seen[0]!.remotePort)).toBe(true);
    expect(target.seen[0]!.proxyAuthorization).toBeUndefined();
  });

  it('reads HTTP_PROXY too, and the lower case first', async () => {
    vi.stubEnv('HTTP_PROXY', proxy.url);
    expect(await text(`http://api.invalid:${target.port}/upper`)).toBe('hello from /upper');
    vi.stubEnv('http_proxy', 'http://127.0.0.1:9');
    await expect(proxyFetch(`http://api.invalid:${target.port}/lower`)).rejects.toThrow(
      /through the proxy http:\/\/127\.0\.0\.1:9 \(http_proxy or HTTP_PROXY\)/,
    );
    expect(requests()).toEqual([`GET http://api.invalid:${target.port}/upper`]);
  });

  it('decides again for each redirect: through the proxy to another proxied host, straight to one no_proxy lists', async () => {
    vi.stubEnv('http_proxy', proxy.url);
    vi.stubEnv('no_proxy', 'localhost');
    const viaProxy = `http://blob.invalid:${target.port}/blob`;
    expect(await text(`http://api.invalid:${target.port}/go?to=${encodeURIComponent(viaProxy)}`)).toBe('hello from /blob');
    expect(requests()).toEqual([`GET http://api.invalid:${target.port}/go?to=${encodeURIComponent(viaProxy)}`, `GET ${viaProxy}`]);

    proxy.log.length = 0;
    const direct = `http://localhost:${target.port}/direct`;
    expect(await text(`http://api.invalid:${target.port}/go?to=${encodeURIComponent(direct)}`)).toBe('hello from /direct');
    expect(requests()).toEqual([`GET http://api.invalid:${target.port}/go?to=${encodeURIComponent(direct)}`]);
    expect(proxy.upstreamPorts.has(target.seen.at(-1)!.remotePort)).toBe(false);
  });

  it.each([
    ['the host', 'api.invalid'],
    ['a parent domain', 'invalid'],
    ['a leading-dot domain', '.invalid'],
    ['host:port', 'api.invalid:PORT'],
    ['*', '*'],
    ['one entry of a list, in upper case and spaced', 'example.com, API.INVALID ,other'],
  ])('no_proxy listing %s sends the request straight (here: to a name that does not resolve)', async (_, noProxy) => {
    vi.stubEnv('http_proxy', proxy.url);
    vi.stubEnv('NO_PROXY', noProxy.replace('PORT', String(target.port)));
    const error = await proxyFetch(`http://api.invalid:${target.port}/x`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^cannot reach api\\.invalid:${target.port} directly: no_proxy \\(or NO_PROXY\\) exempts api\\.invalid from the proxy of http_proxy: getaddrinfo`,
      ),
    );
    expect(proxy.log).toEqual([]);
  });

  it.each([
    ['another port', 'api.invalid:1'],
    ['a name that only ends alike', 'pi.invalid'],
    ['a subdomain of the host', 'x.api.invalid'],
  ])('no_proxy listing %s leaves the request to the proxy', async (_, noProxy) => {
    vi.stubEnv('http_proxy', proxy.url);
    vi.stubEnv('no_proxy', noProxy);
    expect(await text(`http://api.invalid:${target.port}/y`)).toBe('hello from /y');
    expect(requests()).toEqual([`GET http://api.invalid:${target.port}/y`]);
  });

  it('never sends a loopback address through the proxy', async () => {
    vi.stubEnv('http_proxy', proxy.url);
    expect(await text(`http://127.0.0.1:${target.port}/local`)).toBe('hello from /local');
    expect(proxy.log).toEqual([]);
  });

  it('tunnels an https request (CONNECT) through https_proxy', async () => {
    vi.stubEnv('https_proxy', proxy.url);
    // The loopback server speaks no TLS: the tunnel is made, the handshake then fails. The proxy saw the CONNECT.
    const error = await proxyFetch(`https://secure.invalid:${target.port}/`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      new RegExp(`^cannot reach secure\\.invalid:${target.port} through the proxy http://\\*\\*\\*@127\\.0\\.0\\.1:\\d+ \\(https_proxy or HTTPS_PROXY\\)`),
    );
    expect(proxy.log).toEqual([{ request: `CONNECT secure.invalid:${target.port}`, authorized: true }]);
  });

  it('with wrong credentials, fails naming the proxy without them', async () => {
    const wrong = new URL(proxy.url);
    wrong.password = 'not-the-password-4242';
    vi.stubEnv('http_proxy', wrong.href);
    const error = await proxyFetch(`http://api.invalid:${target.port}/z`).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(
      `cannot reach api.invalid:${target.port} through the proxy http://***@${new URL(proxy.url).host} (http_proxy or HTTP_PROXY): Proxy Authentication Required (407)`,
    );
    expect(proxy.log).toEqual([{ request: `GET http://api.invalid:${target.port}/z`, authorized: false, refused: 407 }]);
    expect(String((error as Error).stack)).not.toContain('not-the-password-4242');
  });

  it('says so when no proxy variable is set and the host does not resolve', async () => {
    await expect(proxyFetch(`http://api.invalid:${target.port}/`)).rejects.toThrow(
      new RegExp(`^cannot reach api\\.invalid:${target.port} directly: http_proxy and HTTP_PROXY are not set: getaddrinfo`),
    );
  });

  it('refuses a proxy variable that is no http(s) URL, naming it without quoting it', async () => {
    for (const value of ['http://user:s3cret-pass@', 'socks5://user:s3cret-pass@proxy:1080', 'http://exa mple:s3cret-pass']) {
      vi.stubEnv('HTTPS_PROXY', value);
      const error = await proxyFetch(`https://api.invalid:${target.port}/`).catch((caught: unknown) => caught);
      expect((error as Error).message).toBe('HTTPS_PROXY is not an http or https URL; use for example http://proxy.example.com:3128');
      expect(String((error as Error).stack)).not.toContain('s3cret');
    }
    expect(proxy.log).toEqual([]);
  });

  it('leaves a timeout as the abort it is', async () => {
    vi.stubEnv('http_proxy', proxy.url);
    const error = await proxyFetch(`http://api.invalid:${target.port}/`, { signal: AbortSignal.abort() }).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as Error).name).toBe('AbortError');
  });
});

describe('shownProxy', () => {
  it('blanks the credentials and keeps the rest', () => {
    expect(shownProxy(new URL('http://user:pa%40ss@proxy.corp:3128/'))).toBe('http://***@proxy.corp:3128');
    expect(shownProxy(new URL('http://token@proxy.corp:3128'))).toBe('http://***@proxy.corp:3128');
    expect(shownProxy(new URL('https://proxy.corp'))).toBe('https://proxy.corp');
  });
});
