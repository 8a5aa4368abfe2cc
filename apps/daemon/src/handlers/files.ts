import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Session } from '@argus/cdp';
import { ArgusError, type Handlers } from '@argus/protocol';
import { CLICK_DOWNLOAD_LINK, UPLOAD_TARGET, click } from '@argus/snapshot';
import { callOnElement, evaluateInPage } from '../page-eval.js';
import { type DownloadRecord, downloadsFor, publicRecord } from '../downloads.js';
import type { Services } from '../services.js';
import { confinePath, hasScope } from '@argus/security';
import { actAndReport } from '../action-result.js';

export function filesHandlers(services: Services): Handlers['files'] {
  const { manager } = services;
  const downloads = downloadsFor(manager, join(services.stateDir, 'downloads'));
  return {
    upload: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        const policy = services.access.paths(ctx);
        const files = input.files.map((file) => {
          const path = confinePath(file, policy);
          const info = statSync(path, { throwIfNoEntry: false });
          if (!info?.isFile())
            throw new ArgusError(
              'invalid_input',
              `${file} is not a file (resolved to ${path}). Pass existing files of your project or the temp dir (relative paths start at your current directory).`,
            );
          return path;
        });
        const handle = await manager.engine(page).resolveWaiting(input.target, input.timeoutMs);
        const kind = await callOnElement(page, handle, UPLOAD_TARGET);
        if (kind.kind === 'field') {
          throw new ArgusError(
            'invalid_input',
            `${handle.label} is a form field (${kind.type}), not a file input, and clicking it opens no file chooser. Target the <input type=file> (\`argus snapshot -i\` shows it), its label, or the button that opens the chooser.`,
            {
              details: { element: handle.label, type: kind.type },
            },
          );
        }
        if (kind.kind === 'file') {
          if (kind.disabled) throw new ArgusError('element_not_interactable', `${handle.label} is disabled.`);
          if (files.length > 1 && !kind.multiple)
            throw new ArgusError(
              'invalid_input',
              `${handle.label} takes one file (no \`multiple\` attribute); got ${files.length}.`,
              { details: { element: handle.label } },
            );
          const { effects } = await actAndReport(manager, page, input, async () => {
            // resolved again: the report's snapshot released the first handle's object
            const current = await manager.engine(page).resolve(input.target);
            await current.session.send('DOM.setFileInputFiles', { files, objectId: current.objectId });
          });
          return { ...effects, element: handle.label, files, via: 'input' as const };
        }
        const { effects } = await actAndReport(manager, page, input, () =>
          uploadViaChooser(
            handle.session,
            () => click(manager.engine(page), input.target, { timeoutMs: input.timeoutMs }),
            files,
            input.timeoutMs,
            handle.label,
          ),
        );
        return { ...effects, element: handle.label, files, via: 'chooser' as const };
      }),
    download: async (input, ctx) => {
      const policy = services.access.paths(ctx);
      const saveTo = input.path === undefined ? undefined : confinePath(input.path, policy);
      if (saveTo !== undefined && !hasScope(ctx.scopes, 'write'))
        throw new ArgusError('forbidden_scope', 'Saving a download to a path needs the write scope.');
      const before = new Set(downloads.list().map((record) => record.id));
      const isNew = (record: DownloadRecord) => !before.has(record.id);
      let record: DownloadRecord;
      if (/^https?:\/\//i.test(input.source)) {
        let url: string;
        try {
          url = new URL(input.source).href;
        } catch {
          throw new ArgusError('invalid_input', `"${input.source}" is not a URL.`);
        }
        const done = downloads.waitFor(
          (candidate) => isNew(candidate) && candidate.url === url,
          input.timeoutMs,
          `The download of ${url}`,
        );
        // its timeout may come while the download is still being started: awaited below, never unhandled
        done.catch(() => undefined);
        await manager.onTab(input.tab, (page) => startUrlDownload(manager, page, url));
        record = await done;
      } else {
        const done = downloads.waitFor(isNew, input.timeoutMs, `The download started by clicking ${input.source}`);
        // its timeout may come while the click still waits for its element: awaited below, never unhandled
        done.catch(() => undefined);
        // no page.act here: a download is a navigation that never commits, act would wait for it
        await manager.onTab(input.tab, (page) =>
          click(manager.engine(page), input.source, { timeoutMs: Math.min(input.timeoutMs, 5_000) }),
        );
        record = await done;
      }
      if (saveTo) await downloads.moveTo(record, saveTo, { overwrite: input.overwrite, policy });
      return publicRecord(record);
    },
    downloads: async () => ({ dir: downloads.dir, downloads: downloads.list().map(publicRecord) }),
  };
}

/** Same-origin: an `<a download>` click in the tab. Otherwise a temporary tab navigated to the URL. */
async function startUrlDownload(manager: Services['manager'], page: Page, url: string): Promise<void> {
  const sameOrigin = (() => {
    try {
      return new URL(page.url).origin === new URL(url).origin;
    } catch {
      return false;
    }
  })();
  if (sameOrigin) {
    await evaluateInPage(page, CLICK_DOWNLOAD_LINK, [url]);
    return;
  }
  await manager.structural(async (browser) => {
    const temp = await browser.newPage();
    try {
      const result = await temp.session.send('Page.navigate', { url });
      if (!result.isDownload) {
        throw new ArgusError(
          'invalid_input',
          `${url} opened as a page, not a download (${result.errorText ?? 'no attachment'}). Open it with \`argus goto\`, or download it from a page of the same site.`,
        );
      }
    } finally {
      await browser.closePage(temp.id).catch(() => undefined);
    }
  });
}

/**
 * Clicks something that opens a file chooser, with the chooser intercepted
 * (`Page.setInterceptFileChooserDialog`), and answers it with the files.
 */
async function uploadViaChooser(
  session: Session,
  open: () => Promise<unknown>,
  files: string[],
  timeoutMs: number,
  label: string,
): Promise<void> {
  await session.send('Page.setInterceptFileChooserDialog', { enabled: true });
  try {
    const opened = session.waitFor('Page.fileChooserOpened', { timeoutMs });
    opened.catch(() => undefined);
    await open();
    const chooser = await opened.catch(() => {
      throw new ArgusError(
        'element_not_interactable',
        `Clicking ${label} did not open a file chooser within ${timeoutMs} ms. Target the <input type=file> or the button that opens the chooser.`,
      );
    });
    if (files.length > 1 && chooser.mode === 'selectSingle')
      throw new ArgusError('invalid_input', `The file chooser opened by ${label} takes one file; got ${files.length}.`);
    if (chooser.backendNodeId === undefined)
      throw new ArgusError(
        'unsupported',
        'The file chooser is not attached to an input element; Chrome cannot fill it.',
      );
    await session.send('DOM.setFileInputFiles', { files, backendNodeId: chooser.backendNodeId });
  } finally {
    await session.send('Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => undefined);
  }
}
