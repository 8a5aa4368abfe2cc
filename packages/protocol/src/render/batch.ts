import type { OutputOf, RenderContext, RenderersOf } from './types.js';

/** Renders one step's output as the single command would (given by index.ts: the whole table). */
export type StepRenderer = (command: string, output: unknown, context: RenderContext) => string;

type Step = OutputOf<'batch.chain'>['results'][number];
type TabStep = OutputOf<'batch.tabEach'>['results'][number];

/** The input a step ran with, from the chain/batch input (`steps` / `commands`), for renderers that read it. */
function stepInput(context: RenderContext, index: number): Readonly<Record<string, unknown>> {
  const list = context.input.steps ?? context.input.commands;
  const step = Array.isArray(list) ? (list[index] as { input?: unknown } | undefined) : undefined;
  return step?.input && typeof step.input === 'object' ? (step.input as Record<string, unknown>) : {};
}

/** `[label] body` on one line, or the label then the body indented under it when the body has several lines. */
function block(label: string, body: string): string {
  return body.includes('\n') ? `${label}\n${body.replace(/^/gm, '  ')}` : `${label}  ${body}`;
}

function stepText(
  label: string,
  step: Step | TabStep,
  command: string,
  context: RenderContext,
  render: StepRenderer,
): string {
  if (!step.ok) return `${label}  error[${step.error?.code ?? 'internal'}]: ${step.error?.message ?? ''}`;
  return block(label, render(command, step.output, context));
}

export function batchRenderers(render: StepRenderer): RenderersOf<'batch'> {
  const steps = (results: readonly Step[], context: RenderContext) =>
    results.map((step) =>
      stepText(
        `[${step.index}] ${context.label(step.command)}`,
        step,
        step.command,
        { ...context, input: stepInput(context, step.index) },
        render,
      ),
    );
  return {
    'batch.chain': (output, context) =>
      [
        ...steps(output.results, context),
        ...(output.ok ? [] : [`chain stopped at step ${output.failedStep}; later steps did not run`]),
      ].join('\n'),
    'batch.run': (output, context) =>
      [...steps(output.results, context), `${output.succeeded} ok, ${output.failed} failed`].join('\n'),
    'batch.tabEach': (output, context) => {
      const command = typeof context.input.command === 'string' ? context.input.command : '';
      const input = context.input.input && typeof context.input.input === 'object' ? context.input.input : {};
      return (
        output.results
          .map((step) =>
            stepText(`tab ${step.tab}`, step, command, { ...context, input: input as Record<string, unknown> }, render),
          )
          .join('\n') || '(no tabs)'
      );
    },
  };
}
