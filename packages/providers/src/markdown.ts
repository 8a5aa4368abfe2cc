import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

let service: TurndownService | undefined;

/** HTML -> Markdown with GFM tables, strikethrough and task lists; one configured service per process. */
export function htmlToMarkdown(html: string): string {
  if (!service) {
    service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.use(gfm);
    service.remove(['script', 'style', 'noscript', 'iframe']);
  }
  return service.turndown(html).trim();
}
