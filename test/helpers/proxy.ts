/**
 * A loopback HTTP proxy for the tests, as a company's would be: it forwards http requests (absolute-form) and
 * tunnels others (CONNECT), only for a client that sends the credentials of its URL (Proxy-Authorization, else
 * 407), and logs every request. It resolves names the machine cannot: any host under `.invalid` (RFC 2606, which
 * never resolves) is 127.0.0.1, so a client can reach a loopback server by such a name only through this proxy.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxyLogEntry {
  /** `GET http://host:port/path` as forwarded, or `CONNECT host:port`. */
  readonly request: string;
  /** Whether it carried the proxy's credentials (else it was answered 407). */
  readonly authorized: boolean;
  /** The status the proxy answered with, when it answered itself (407, 502); undefined when it relayed. */
  readonly refused?: number;
}

export interface TestProxy {
  /** The proxy's URL with its credentials, for https_proxy / http_proxy. */
  readonly url: string;
  readonly user: string;
  readonly password: string;
  readonly log: ProxyLogEntry[];
  /**
   * The local ports of the connections the proxy opened to servers: a server that sees a request from one of
   * these got it through the proxy.
   */
  readonly upstreamPorts: Set<number>;
  close(): Promise<void>;
}

/** Where a host name goes: `.invalid` names to loopback, loopback to itself; anything else is not reached. */
function resolve(host: string): string | null {
  const name = host.toLowerCase();
  if (name.endsWith('.invalid')) return '127.0.0.1';
  return name === '127.0.0.1' || name === 'localhost' ? '127.0.0.1' : null;
}

export async function startProxy(options: { user?: string; password?: string } = {}): Promise<TestProxy> {
  const user = options.user ?? 'proxy-user';
  const password = options.password ?? 'pr0xy:p@ss/word-7731';
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const log: ProxyLogEntry[] = [];
  const upstreamPorts = new Set<number>();
  const sockets = new Set<Socket>();

  const authorized = (request: IncomingMessage) => request.headers['proxy-authorization'] === expected;
  const track = (socket: Socket) => {
    // A kept-alive connection serves many forwarded requests: listened to once.
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('connect', () => upstreamPorts.add(socket.localPort!));
  };

  const forward = (request: IncomingMessage, response: ServerResponse) => {
    const ok = authorized(request);
    const target = new URL(request.url ?? '');
    const address = resolve(target.hostname);
    const refused = !ok ? 407 : address === null ? 502 : undefined;
    log.push({ request: `${request.method} ${target.href}`, authorized: ok, ...(refused === undefined ? {} : { refused }) });
    if (refused !== undefined) {
      response.writeHead(refused, refused === 407 ? { 'proxy-authenticate': 'Basic realm="test"' } : {});
      response.end();
      return;
    }
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { host: address, port: target.port || 80, method: request.method, path: target.pathname + target.search, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('socket', track);
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  };

  const server = createServer(forward);
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const ok = authorized(request);
    const [host = '', port = '443'] = (request.url ?? '').split(/:(?=\d+$)/);
    const address = resolve(host);
    const refused = !ok ? 407 : address === null ? 502 : undefined;
    log.push({ request: `CONNECT ${request.url}`, authorized: ok, ...(refused === undefined ? {} : { refused }) });
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    if (refused !== undefined) {
      client.end(`HTTP/1.1 ${refused} ${refused === 407 ? 'Proxy Authentication Required' : 'Bad Gateway'}\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const upstream = connect(Number(port), address!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    user,
    password,
    log,
    upstreamPorts,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
