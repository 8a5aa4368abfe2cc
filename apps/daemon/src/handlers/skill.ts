import type { Handlers } from '@argus/protocol';
import type { Services } from '../services.js';
import { skillFromRecording, summary } from '../skills/skill-recorder.js';
import { runSkill } from '../skills/skill-runner.js';
import type { LoadedSkill } from '@argus/protocol';

/** What `skill list` and friends say about one skill. */
function info(skill: LoadedSkill) {
  const data = skill.data;
  return {
    name: skill.name,
    tier: skill.tier,
    path: skill.path,
    description: data?.description ?? '',
    startUrl: data?.startUrl ?? null,
    params: Object.entries(data?.params ?? {}).map(([name, param]) => ({
      name,
      description: param.description ?? '',
      secret: param.secret,
      required: param.default === undefined,
    })),
    steps: data?.steps.length ?? 0,
    ...(skill.error === undefined ? {} : { error: skill.error }),
  };
}

/** Browser skills (issue 19): record a flow once, replay it by name in one call. */
export function skillHandlers(services: Services): Handlers['skill'] {
  const { skills, manager, dispatch } = services;
  const deps = { dispatch, manager, locate: skills.locate };
  return {
    async record(input, ctx) {
      return summary(skills.recorder.start(ctx, input.name, input.description));
    },
    async cancel(_input, ctx) {
      const dropped = skills.recorder.drop(ctx);
      return { cancelled: dropped ? summary(dropped) : null };
    },
    async save(input, ctx) {
      const recording = skills.recorder.require(ctx, 'save');
      const data = skillFromRecording(recording, input.description);
      const path = await skills.store.save(ctx, data, { user: input.user, overwrite: input.overwrite });
      skills.recorder.drop(ctx);
      services.log.info('skill.saved', { name: data.name, path, steps: data.steps.length });
      return {
        skill: info({ name: data.name, tier: input.user ? 'user' : 'project', path, data, text: '' }),
        commands: data.commands,
      };
    },
    async list(_input, ctx) {
      const recording = skills.recorder.current(ctx);
      return {
        skills: skills.store.list(ctx).map(info),
        recording: recording ? summary(recording) : null,
        dirs: skills.store.dirs(ctx),
      };
    },
    async show(input, ctx) {
      const skill = skills.store.find(ctx, input.name);
      return { skill: info(skill), file: skill.text };
    },
    async rm(input, ctx) {
      return { removed: skills.store.remove(ctx, input.name, input.user) };
    },
    run: (input, ctx) => runSkill(deps, skills.store.find(ctx, input.name), input, ctx),
    test: (input, ctx) => runSkill(deps, skills.store.find(ctx, input.name), { ...input, start: true }, ctx),
  };
}
