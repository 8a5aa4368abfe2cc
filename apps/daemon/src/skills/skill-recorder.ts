/**
 * Recording: one per caller session (the operator's default session, a named session, a shared
 * token's), fed by the router's `observe` seam, which sees every call, batch and chain steps
 * included. Only successful navigation and input commands are kept (SKILL_COMMANDS); each is turned
 * into a step as it settles (skill-steps.ts), so typed values never stay in memory.
 */
import {
  type AnyCommand,
  type CallContext,
  MAX_SKILL_STEPS,
  SKILL_COMMANDS,
  type SkillFileData,
} from '@argus/protocol';
import { ArgusError } from '@argus/protocol';
import type { ObserveCall } from '@argus/protocol/router';
import { callerFor } from '../caller.js';
import type { LocateTab } from '../journal/journal.js';
import { type RecordedParam, type RecordedStep, recordStep } from './skill-steps.js';

const REPLAYABLE: ReadonlySet<string> = new Set(SKILL_COMMANDS);

export interface Recording {
  name: string;
  description: string | undefined;
  /** The tab's URL when recording began (http(s) only); a leading goto replaces it. */
  startUrl: string | null;
  steps: RecordedStep[];
  params: Map<string, RecordedParam>;
  /** Steps past MAX_SKILL_STEPS that were not kept. */
  overflow: number;
}

export interface RecordingSummary {
  name: string;
  steps: number;
  startUrl: string | null;
}

/** Whose recording a call belongs to: the same owner id its tabs have. */
function sessionKey(ctx: CallContext): string {
  return callerFor(ctx)?.id ?? 'default';
}

function webUrl(url: string | null): string | null {
  return url !== null && /^https?:/i.test(url) ? url : null;
}

export function summary(recording: Recording): RecordingSummary {
  const { startUrl, steps } = leadingGoto(recording);
  return { name: recording.name, steps: steps.length, startUrl };
}

/** A leading goto is the skill's start URL rather than a step (`skill test` goes there first). */
function leadingGoto(recording: Recording): { startUrl: string | null; steps: RecordedStep[] } {
  const first = recording.steps[0];
  if (first?.command === 'page.goto' && typeof first.input['url'] === 'string')
    return { startUrl: first.input['url'], steps: recording.steps.slice(1) };
  return { startUrl: recording.startUrl, steps: recording.steps };
}

/** The skill file a recording becomes; refuses steps that cannot be replayed. */
export function skillFromRecording(recording: Recording, description: string | undefined): SkillFileData {
  const { startUrl, steps } = leadingGoto(recording);
  if (recording.overflow > 0)
    throw new ArgusError(
      'skill_invalid',
      `The recording of "${recording.name}" ran past ${MAX_SKILL_STEPS} steps (${recording.overflow} more were not kept). Split the flow into smaller skills.`,
    );
  const broken = steps.flatMap((step, index) =>
    step.problem ? [`step ${index + 1} (${step.command}): ${step.problem}`] : [],
  );
  if (broken.length > 0)
    throw new ArgusError(
      'skill_invalid',
      `The recording of "${recording.name}" cannot be replayed: ${broken.join('; ')}. Record it again (\`argus skill record ${recording.name}\`) acting on those elements by locator.`,
      { details: { problems: broken } },
    );
  if (steps.length === 0)
    throw new ArgusError(
      'skill_invalid',
      `The recording of "${recording.name}" has no steps to replay (only a navigation). Act on the page (fill, click, …) before \`argus skill save\`, or \`argus skill cancel\`.`,
    );
  const used = new Set(
    steps.flatMap(
      (step) =>
        Object.values(step.input)
          .join(' ')
          .match(/\{\{(\w+)\}\}/g) ?? [],
    ),
  );
  const params = Object.fromEntries(
    [...recording.params].filter(([name]) => used.has(`{{${name}}}`)).map(([name, param]) => [name, { ...param }]),
  );
  return {
    argusSkill: 1,
    name: recording.name,
    description: description ?? recording.description ?? '',
    startUrl,
    commands: [...new Set(steps.map((step) => step.command))].sort(),
    params,
    steps: steps.map((step) => ({ command: step.command, input: step.input })),
  };
}

export class SkillRecorder {
  private readonly recordings = new Map<string, Recording>();

  constructor(private readonly locate: LocateTab) {}

  /**
   * Starts the caller's recording. One that is under way is never replaced: its steps would be lost
   * without a word, so it has to be saved or cancelled first.
   */
  start(ctx: CallContext, name: string, description: string | undefined): Recording {
    const running = this.current(ctx);
    if (running) {
      const { steps } = summary(running);
      throw new ArgusError(
        'already_recording',
        `A recording of "${running.name}" (${steps} step${steps === 1 ? '' : 's'}) is under way in this session. Run \`argus skill save\` to keep it or \`argus skill cancel\` to drop it, then \`argus skill record ${name}\`.`,
        { details: { recording: running.name, steps } },
      );
    }
    const recording: Recording = {
      name,
      description,
      startUrl: webUrl(this.locate(ctx, {}).url),
      steps: [],
      params: new Map(),
      overflow: 0,
    };
    this.recordings.set(sessionKey(ctx), recording);
    return recording;
  }

  current(ctx: CallContext): Recording | undefined {
    return this.recordings.get(sessionKey(ctx));
  }

  /** The caller's recording, or `not_recording`. */
  require(ctx: CallContext, verb: string): Recording {
    const recording = this.current(ctx);
    if (!recording)
      throw new ArgusError(
        'not_recording',
        `Nothing is being recorded in this session, so there is nothing to ${verb}. Start with \`argus skill record NAME\`, then run the flow.`,
      );
    return recording;
  }

  /** Ends the caller's recording (saved or cancelled). */
  drop(ctx: CallContext): Recording | undefined {
    const key = sessionKey(ctx);
    const recording = this.recordings.get(key);
    this.recordings.delete(key);
    return recording;
  }

  /** The router's observer: records the caller's successful replayable commands. */
  readonly observe: ObserveCall = (ctx: CallContext, command: AnyCommand, input: unknown) => {
    if (!REPLAYABLE.has(command.name) || this.recordings.size === 0) return undefined;
    const recording = this.recordings.get(sessionKey(ctx));
    if (!recording) return undefined;
    return (error, output) => {
      if (error !== undefined || this.recordings.get(sessionKey(ctx)) !== recording) return;
      if (recording.steps.length >= MAX_SKILL_STEPS + 1) {
        recording.overflow++;
        return;
      }
      recording.steps.push(recordStep(command, input, output, recording.params));
    };
  };
}
