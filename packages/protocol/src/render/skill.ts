import { duration } from './format.js';
import type { OutputOf, RenderersOf } from './types.js';

type Info = OutputOf<'skill.list'>['skills'][number];
type Run = OutputOf<'skill.run'>;

function paramList(info: Info): string {
  if (info.params.length === 0) return 'no parameters';
  return info.params
    .map((param) => `${param.name}${param.secret ? ' (secret)' : ''}${param.required ? '' : ' [optional]'}`)
    .join(', ');
}

function infoLine(info: Info): string {
  const head = `${info.name.padEnd(20)} ${info.tier.padEnd(8)} ${info.steps} steps; ${paramList(info)}`;
  if (info.error) return `${head}\n  BROKEN: ${info.error}`;
  return info.description ? `${head}\n  ${info.description}` : head;
}

function runText(output: Run): string {
  const steps = output.steps.map((step) =>
    `  ${String(step.index).padStart(2)}. ${step.command.padEnd(16)} ${duration(step.ms).padStart(7)}  ${step.target ?? ''}`.trimEnd(),
  );
  return [
    `skill ${output.name} (${output.tier}): ${output.steps.length} steps in ${duration(output.durationMs)}${output.url ? `, now at ${output.url}` : ''}`,
    ...steps,
  ].join('\n');
}

type Recording = NonNullable<OutputOf<'skill.list'>['recording']>;
const recordingLine = (recording: Recording) =>
  `recording "${recording.name}": ${recording.steps} steps so far${recording.startUrl ? `, starting at ${recording.startUrl}` : ''}`;

export const skillRenderers: RenderersOf<'skill'> = {
  'skill.record': (output, context) =>
    `${recordingLine(output)}. Run the flow (goto, fill, click …), then ${context.surface === 'agent' ? 'argus_skill_save' : '`argus skill save`'}.`,
  'skill.cancel': (output) =>
    output.cancelled
      ? `cancelled the recording of "${output.cancelled.name}" (${output.cancelled.steps} steps dropped)`
      : 'nothing was being recorded',
  'skill.save': (output) =>
    `saved skill ${output.skill.name} to ${output.skill.path ?? '?'}: ${output.skill.steps} steps (${output.commands.join(', ')}); ${paramList(output.skill)}`,
  'skill.list': (output) =>
    [
      ...(output.skills.length ? output.skills.map(infoLine) : ['(no skills)']),
      ...(output.recording ? [recordingLine(output.recording)] : []),
    ].join('\n'),
  'skill.show': (output) =>
    `${infoLine(output.skill)}\n${output.skill.path ?? '(bundled)'}:\n${output.file.replace(/\n$/, '')}`,
  'skill.rm': (output) => `removed ${output.removed}`,
  'skill.run': runText,
  'skill.test': runText,
};
