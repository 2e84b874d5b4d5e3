// hoodiecrow-imap ships no types: the part of its API the IMAP fake uses.
declare module 'hoodiecrow-imap' {
  import type { Server } from 'node:net';

  interface HoodiecrowOptions {
    plugins?: string[];
    storage?: Record<string, { messages: Array<{ raw: string; flags?: string[]; internaldate?: string }> }>;
    users?: Record<string, { password: string }>;
  }

  interface HoodiecrowServer {
    server: Server;
    listen(port: number, host: string, callback: () => void): void;
    close(callback?: () => void): void;
  }

  export default function hoodiecrow(options?: HoodiecrowOptions): HoodiecrowServer;
}
