import type TurndownService from 'turndown';
import { turndown, turndownGfm } from './lazy-deps.js';

let service: TurndownService | undefined;

/** HTML -> Markdown with GFM tables, strikethrough and task lists; one configured service per process. */
export function htmlToMarkdown(html: string): string {
  if (!service) {
    const Turndown = turndown();
    service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.use(turndownGfm().gfm);
    service.remove(['script', 'style', 'noscript', 'iframe']);
  }
  return service.turndown(html).trim();
}
