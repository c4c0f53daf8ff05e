/**
 * The server could not start for a reason its operator can fix (a port in use): the CLI prints the
 * message in one line, without a stack. Its own module, so the CLI knows it without loading the
 * HTTP stack.
 */
export class StartError extends Error {}
