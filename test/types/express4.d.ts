// Express 4 is installed under the alias `express4` for the compatibility tests; its API is
// close enough to Express 5 for what the tests use, so it borrows Express 5's types.
declare module 'express4' {
  import express from 'express';
  export default express;
}
