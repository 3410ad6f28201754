import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

type AgentClass = new (options?: ConstructorParameters<typeof import('undici').Agent>[0]) => Dispatcher;
type RequestFunction = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

const load = createRequire(import.meta.url);

/**
 * undici's own modules, not its root entry: the root also loads fetch, WebSocket, the cache and
 * mocks (about 3 MB of heap and a third of the package's import time) that the client never
 * uses. The paths are undici 7's and no exports map promises them, so a release that moves them
 * falls back to the root entry: more heap, the same client.
 */
function loadUndici(): { Agent: AgentClass; request: RequestFunction } {
  try {
    return {
      Agent: load('undici/lib/dispatcher/agent.js') as AgentClass,
      request: load('undici/lib/api/api-request.js') as RequestFunction,
    };
  } catch {
    const root = load('undici') as typeof import('undici');
    return {
      Agent: root.Agent,
      request(this: Dispatcher, options: Dispatcher.RequestOptions) {
        return this.request(options);
      },
    };
  }
}

const undici = loadUndici();

/** A keep-alive pool per origin, as `new undici.Agent(options)`. */
export function createAgent(options: ConstructorParameters<typeof import('undici').Agent>[0]): Dispatcher {
  return new undici.Agent(options);
}

/**
 * `dispatcher.request(options)`: undici's root entry adds `request` to every dispatcher's
 * prototype, which its own modules alone do not, so it is called on the dispatcher here.
 */
export function requestOn(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return undici.request.call(dispatcher, options);
}
