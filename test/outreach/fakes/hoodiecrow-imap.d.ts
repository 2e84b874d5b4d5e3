// hoodiecrow-imap ships no types: the part of its API the IMAP fake uses.
declare module 'hoodiecrow-imap' {
  import type { Server } from 'node:net';

  interface HoodiecrowOptions {
    plugins?: string[];
    storage?: Record<string, { messages: Array<{ raw: string; flags?: string[]; internaldate?: string }> }>;
    users?: Record<string, { password: string }>;
    /** TLS from the first byte (IMAPS). */
    secureConnection?: boolean;
    /** The TLS key and certificate, for secureConnection or the STARTTLS plugin. */
    credentials?: { key: Buffer; cert: Buffer };
  }

  interface HoodiecrowServer {
    server: Server;
    listen(port: number, host: string, callback: () => void): void;
    close(callback?: () => void): void;
  }

  export default function hoodiecrow(options?: HoodiecrowOptions): HoodiecrowServer;
}
