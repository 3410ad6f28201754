import type { Dispatcher } from 'undici';
// undici's own modules, not its root entry: the root also loads fetch, WebSocket, the cache and
// mocks (about 3 MB of heap and a third of the package's import time) that the client never
// uses. These paths are undici 7's (no exports map restricts them); the client tests fail if
// a release moves them.
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';

/** A keep-alive pool per origin, as `new undici.Agent(options)`. */
export function createAgent(options: ConstructorParameters<typeof Agent>[0]): Dispatcher {
  return new Agent(options);
}

/**
 * `dispatcher.request(options)`: undici's root entry adds `request` to every dispatcher's
 * prototype, which these modules alone do not, so it is called on the dispatcher here.
 */
export function requestOn(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return request.call(dispatcher, options);
}
