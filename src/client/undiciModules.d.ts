// Types for the two undici modules the client imports by path (see agent.ts): the same
// classes and function undici's root entry exports, whose types it ships.

declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** `Dispatcher.prototype.request`, called with the dispatcher as `this`. */
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
