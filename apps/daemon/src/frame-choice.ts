import type { Page, Session } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { FRAME_OWNER, type FrameOwner } from '@argus/snapshot';
import { callOnElement } from './page-eval.js';

/**
 * How long after the chosen iframe went away a command waits for one like it to come back before
 * failing: a framework re-render removes the element and inserts the new one in one task, but its
 * CDP events may still be on the way when the next command arrives.
 */
const FOLLOW_GRACE_MS = 1_000;
/** Past the grace, what a check of an inserted iframe already running may still take. */
const CHECK_MAX_MS = 2_000;

/** What `argus frame` was given: one of these. */
export interface ChosenBy {
  target?: string;
  name?: string;
  url?: string;
}

/**
 * Why a chosen frame can no longer be used. Only a removal may still be undone (by an iframe like it,
 * inserted in the same document); the document around the frame navigating ends the choice for good.
 */
type Lost = 'frame_removed' | 'parent_navigated' | 'top_navigated';

interface Choice {
  frameId: string;
  /** the page's epoch when chosen: a navigation of the top document loses the choice for good */
  epoch: number;
  parentId: string;
  /** the choice as the caller gave it (an iframe's selector or ref, its name or part of its URL) */
  given: ChosenBy;
  /** the <iframe> element when chosen (undefined: it could not be read, so nothing can be followed) */
  owner: FrameOwner | undefined;
  lost?: { reason: Lost; at: number };
  /** checks of inserted iframes still running */
  checks: number;
  /** called on every change of the choice (a follow, a check done) */
  readonly waiters: Set<() => void>;
  readonly offs: Array<() => void>;
}

/**
 * The frame each tab's commands run in, as chosen with `argus frame`, and what keeps that choice
 * true. A navigation inside the frame keeps its frame id (nothing to do). When the page removes the
 * <iframe> and inserts one like it (a framework re-render: a new frame id in CDP), the choice follows
 * the new one: same parent frame, same document around it, and an element with the same tag, id,
 * name and src at the same place among those alike. When none comes back, or the top document
 * navigates (every frame of it is gone, however alike the new page's), the commands that would run
 * in the frame fail with `ref_stale` saying so, instead of running in the top document, until the
 * agent chooses again. The agent's own navigation commands end the choice instead (`end`), and say so.
 */
export class FrameChoices {
  private readonly choices = new WeakMap<Page, Choice>();

  /** Chooses `frameId` (an iframe's frame; not the main frame) for `page`'s commands. */
  async choose(page: Page, frameId: string, given: ChosenBy): Promise<void> {
    this.clear(page);
    const parentId = page.frames.get(frameId)?.parentId ?? page.mainFrameId;
    const choice: Choice = {
      frameId,
      epoch: page.epoch,
      parentId,
      given,
      owner: await readOwner(page, frameId, parentId),
      checks: 0,
      waiters: new Set(),
      offs: [],
    };
    this.choices.set(page, choice);
    this.watch(page, choice);
  }

  /**
   * Ends the choice because the agent navigated the top document (goto, back, forward, reload,
   * load-html), and says so in that command's `reply`: `frameCleared`, the `argus frame …` command
   * line that made it (the reply as it is when no frame was chosen).
   */
  end<T extends object>(page: Page, reply: T): T & { frameCleared?: string } {
    const choice = this.choices.get(page);
    if (!choice) return reply;
    this.clear(page);
    return { ...reply, frameCleared: `argus frame ${command(choice.given)}` };
  }

  /** Back to the top document. */
  clear(page: Page): void {
    const choice = this.choices.get(page);
    if (!choice) return;
    this.choices.delete(page);
    for (const off of choice.offs) off();
    choice.offs.length = 0;
    for (const wake of choice.waiters) wake();
  }

  /**
   * The chosen frame's id, also when it is gone (reads in it then fail as in any frame without a
   * document), or undefined for the top document. Never throws: the engine reads it to mark documents.
   */
  chosen(page: Page): string | undefined {
    return this.choices.get(page)?.frameId;
  }

  /**
   * For a command of the whole top document that no frame can stand in for (`screenshot --full`,
   * `pdf`): fails while a frame is chosen, rather than answering about the top document to an agent
   * that works in the frame. `frame_chosen`, or the lost choice's `ref_stale`.
   */
  refuseWhileChosen(page: Page, refused: { command: string; does: string; instead: string }): void {
    const choice = this.choices.get(page);
    if (!choice) return;
    const lost = this.lostError(page);
    if (lost) throw lost;
    throw new ArgusError(
      'frame_chosen',
      `\`argus ${refused.command}\` ${refused.does}, not the frame chosen with \`argus frame ${command(choice.given)}\`: a frame's document cannot be taken apart from the page that lays it out. Nothing was done. Run \`argus frame main\` first for the whole page (the frame in it as laid out), or ${refused.instead}.`,
      { details: { chosenWith: choice.given, frameId: choice.frameId, command: refused.command } },
    );
  }

  /** Whether the choice can no longer be used: the error to fail with, else undefined. */
  lostError(page: Page): ArgusError | undefined {
    const choice = this.choices.get(page);
    if (!choice) return undefined;
    // the epoch moves on the top document's commit, maybe before its events reached the listener
    if (choice.epoch !== page.epoch) lose(choice, 'top_navigated');
    else if (!choice.lost && !page.frames.get(choice.frameId)) lose(choice, 'frame_removed');
    return choice.lost ? lostError(choice, page) : undefined;
  }

  /**
   * The frame a command is to run in (undefined: the top document). When the chosen iframe went away
   * a moment ago, first waits (at most FOLLOW_GRACE_MS after that) for one like it; fails with
   * `ref_stale` when none came.
   */
  async inUse(page: Page): Promise<string | undefined> {
    if (!this.lostError(page)) return this.chosen(page);
    const choice = this.choices.get(page)!;
    const lostAt = choice.lost!.at;
    const cap = lostAt + FOLLOW_GRACE_MS + CHECK_MAX_MS;
    for (;;) {
      const now = performance.now();
      // only a removed iframe may come back
      if (this.choices.get(page) !== choice || choice.lost?.reason !== 'frame_removed' || now >= cap) break;
      if (choice.checks === 0 && now >= lostAt + FOLLOW_GRACE_MS) break;
      await changeOf(choice, choice.checks > 0 ? cap - now : lostAt + FOLLOW_GRACE_MS - now);
    }
    const error = this.lostError(page);
    if (error) throw error;
    return this.chosen(page);
  }

  /** Listens, on the session that owns the parent frame, for the chosen iframe's removal and a new one's insertion. */
  private watch(page: Page, choice: Choice): void {
    const session = page.frames.get(choice.parentId)?.session ?? page.session;
    choice.offs.push(
      // a navigation of the top document replaces every frame: lost for good, said by the next command
      page.onEpoch(() => lose(choice, 'top_navigated')),
      session.on('Page.frameDetached', (event) => {
        // a frame moving to another process detaches with reason 'swap' and keeps its id
        if (event.reason === 'swap') return;
        if (event.frameId === choice.frameId) lose(choice, 'frame_removed');
        else if (event.frameId === choice.parentId) lose(choice, 'parent_navigated');
      }),
      session.on('Page.frameNavigated', ({ frame }) => {
        if (frame.id === choice.parentId && choice.parentId !== page.mainFrameId) lose(choice, 'parent_navigated');
      }),
      session.on('Page.frameAttached', (event) => {
        // an iframe of the top document's next page is in another document, however alike
        if (
          choice.lost?.reason === 'frame_removed' &&
          choice.epoch === page.epoch &&
          event.parentFrameId === choice.parentId &&
          choice.owner
        )
          void this.check(page, choice, event.frameId, session);
      }),
    );
  }

  /** Follows `frameId`, a frame inserted in the chosen one's parent, when its element is like the chosen one's. */
  private async check(page: Page, choice: Choice, frameId: string, session: Session): Promise<void> {
    choice.checks++;
    try {
      const owner = await readOwner(page, frameId, choice.parentId, session);
      if (!owner || !sameOwner(owner, choice.owner) || this.choices.get(page) !== choice) return;
      if (choice.lost?.reason !== 'frame_removed' || choice.epoch !== page.epoch) return;
      choice.frameId = frameId;
      delete choice.lost;
    } finally {
      choice.checks--;
      wake(choice);
    }
  }
}

/** The <iframe> element of `frameId`, read in the parent frame's document (undefined when it cannot be). */
async function readOwner(
  page: Page,
  frameId: string,
  parentId: string,
  session: Session | undefined = page.frames.get(parentId)?.session,
): Promise<FrameOwner | undefined> {
  if (!session) return undefined;
  try {
    const { backendNodeId } = await session.send('DOM.getFrameOwner', { frameId });
    // in Argus's isolated world: the page's own scripts cannot change what is read
    const contextId = await page.frames.isolatedWorld(parentId);
    const { object } = await session.send('DOM.resolveNode', { backendNodeId, executionContextId: contextId });
    if (!object.objectId) return undefined;
    try {
      return await callOnElement(page, { objectId: object.objectId, session }, FRAME_OWNER);
    } finally {
      void session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => undefined);
    }
  } catch {
    // the element or its document went away meanwhile: nothing to know it by
    return undefined;
  }
}

function sameOwner(a: FrameOwner, b: FrameOwner | undefined): boolean {
  return (
    b !== undefined && a.tag === b.tag && a.id === b.id && a.name === b.name && a.src === b.src && a.index === b.index
  );
}

/** How final a loss is: a navigation of the document around the frame outranks a removal (its detach events may come first). */
const LOSS_RANK: Record<Lost, number> = { frame_removed: 1, parent_navigated: 2, top_navigated: 3 };

/** Marks the choice lost, unless it already is for a reason as final. */
function lose(choice: Choice, reason: Lost): void {
  if (choice.lost && LOSS_RANK[choice.lost.reason] >= LOSS_RANK[reason]) return;
  choice.lost = { reason, at: choice.lost?.at ?? performance.now() };
  wake(choice);
}

function wake(choice: Choice): void {
  for (const waiter of choice.waiters) waiter();
}

/** Resolves on the choice's next change, or after `ms`. */
function changeOf(choice: Choice, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      choice.waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    choice.waiters.add(done);
  });
}

function lostError(choice: Choice, page: Page): ArgusError {
  const owner = choice.owner;
  const element = owner
    ? `<${owner.tag}${owner.id ? ` id="${owner.id}"` : ''}${owner.name ? ` name="${owner.name}"` : ''}${owner.src ? ` src="${owner.src}"` : ''}>`
    : 'its <iframe>';
  const reason = choice.lost?.reason ?? 'frame_removed';
  const what =
    reason === 'top_navigated'
      ? `the top document navigated (to ${page.url}), and every frame of the page it left went with it`
      : reason === 'parent_navigated'
        ? `the document around it navigated, which removed ${element}`
        : `the page removed ${element} and inserted none like it (same id, name and src, same place)`;
  return new ArgusError(
    'ref_stale',
    `The frame chosen with \`argus frame ${command(choice.given)}\` is gone: ${what}. Nothing was run in the top document instead. Choose again: \`argus frame <iframe>\` (\`argus snapshot\` shows the page and its iframes), or \`argus frame main\` for the top document.`,
    {
      details: {
        reason,
        chosenWith: choice.given,
        frameId: choice.frameId,
        ...(owner ? { element: { tag: owner.tag, id: owner.id, name: owner.name, src: owner.src } } : {}),
        ...(reason === 'top_navigated' ? { url: page.url } : {}),
      },
    },
  );
}

/** The `argus frame` command line that made a choice (quoted for a shell where needed). */
function command(given: ChosenBy): string {
  const shell = (word: string) => (/^[\w./:=-]+$/.test(word) ? word : JSON.stringify(word));
  if (given.target !== undefined) return shell(given.target);
  return given.name !== undefined ? `--name ${shell(given.name)}` : `--url ${shell(given.url ?? '')}`;
}
