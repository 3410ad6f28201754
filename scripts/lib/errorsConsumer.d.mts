// Types of errorsConsumer.mjs, for the tests that import it.
export declare const ERRORS_CONSUMER: string;
