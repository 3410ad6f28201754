import { hostname, networkInterfaces } from 'node:os';

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** A host name as it appears in a Host header: lower case, IPv6 in brackets, no trailing dot. */
function headerName(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, '');
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** Whether binding `host` keeps the emulator on this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase();
  return name === 'localhost' || name === '::1' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The names a Host header may carry for an emulator bound to `host`. */
export function allowedHostNames(host: string, extra: readonly string[]): ReadonlySet<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', headerName(host), ...extra.map(headerName)]);
  if (WILDCARDS.has(host.trim())) {
    // Listening everywhere: the machine's own addresses and name reach it too.
    names.add(headerName(hostname()));
    for (const list of Object.values(networkInterfaces())) {
      for (const address of list ?? []) names.add(headerName(address.address));
    }
  }
  return names;
}

/**
 * Checks the Host header of each request against the emulator's names and the server's port,
 * so a web page on another name that resolves to 127.0.0.1 (DNS rebinding) cannot read the
 * outbox or the dev inbox.
 */
export class HostCheck {
  constructor(
    private readonly names: ReadonlySet<string>,
    private port = 0,
  ) {}

  /** The port the server listens on (known once it listens). */
  setPort(port: number): void {
    this.port = port;
  }

  allows(header: string | undefined): boolean {
    // HTTP/1.0 without Host: no browser sends that, and Node answers HTTP/1.1 without Host itself.
    if (header === undefined) return true;
    const value = header.trim().toLowerCase();
    let name: string;
    let port: string | undefined;
    if (value.startsWith('[')) {
      const end = value.indexOf(']');
      if (end === -1) return false;
      name = value.slice(0, end + 1);
      const rest = value.slice(end + 1);
      if (rest !== '' && !rest.startsWith(':')) return false;
      port = rest === '' ? undefined : rest.slice(1);
    } else {
      const colon = value.lastIndexOf(':');
      name = colon === -1 ? value : value.slice(0, colon);
      port = colon === -1 ? undefined : value.slice(colon + 1);
    }
    const portMatches = port === undefined ? this.port === 80 : port === String(this.port);
    return portMatches && this.names.has(name.replace(/\.$/, ''));
  }
}
