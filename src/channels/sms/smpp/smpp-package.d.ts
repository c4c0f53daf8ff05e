/** The part of the `smpp` package (0.5.x, untyped) Herald's adapter and tests use. */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export interface Pdu {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): Pdu;
  }

  export class Session extends EventEmitter {
    socket: Socket;
    send(pdu: Pdu, onResponse?: (pdu: Pdu) => void, onSent?: (pdu: Pdu) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: Record<string, unknown>, onResponse?: (pdu: Pdu) => void): boolean;
    submit_sm(options: Record<string, unknown>, onResponse?: (pdu: Pdu) => void, onSent?: (pdu: Pdu) => void): boolean;
    deliver_sm(options: Record<string, unknown>, onResponse?: (pdu: Pdu) => void): boolean;
    enquire_link(options?: Record<string, unknown>, onResponse?: (pdu: Pdu) => void): boolean;
    unbind(options?: Record<string, unknown>, onResponse?: (pdu: Pdu) => void): boolean;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function connect(options: Record<string, unknown>, listener?: () => void): Session;
  export function createServer(options: Record<string, unknown>, listener: (session: Session) => void): Server;

  export const errors: Record<string, number>;

  const smpp: {
    connect: typeof connect;
    createServer: typeof createServer;
    errors: typeof errors;
  };
  export default smpp;
}
