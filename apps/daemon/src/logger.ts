import { appendFileSync } from 'node:fs';
import { redactText } from '@argus/security';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured JSON-lines log; secrets (the daemon token) are masked before writing. */
export class Logger {
  constructor(
    readonly file: string,
    private readonly secrets: () => readonly string[] = () => [],
  ) {}

  log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
    const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
    try {
      appendFileSync(this.file, `${redactText(line, this.secrets())}\n`, { mode: 0o600 });
    } catch {
      // logging must never take the daemon down
    }
  }

  info(event: string, fields?: Record<string, unknown>): void {
    this.log('info', event, fields);
  }

  warn(event: string, fields?: Record<string, unknown>): void {
    this.log('warn', event, fields);
  }

  error(event: string, fields?: Record<string, unknown>): void {
    this.log('error', event, fields);
  }
}
