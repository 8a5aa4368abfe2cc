import type { SkillFileData } from './commands/skill.js';

/**
 * Examples shipped with Argus (the lowest tier: a project or user skill of the same name hides
 * them). Kept in code rather than as files so the one-file release bundle carries them.
 */
export const BUNDLED_SKILLS: readonly SkillFileData[] = [
  {
    argusSkill: 1,
    name: 'demo-greet',
    description:
      'On the Argus demo page (`argus demo`, or `argus load-html demo.html`): type a name and press "Say hello"; the greeting appears in the status line.',
    startUrl: null,
    commands: ['input.fill', 'input.click'],
    params: { your_name: { description: 'The name to greet', secret: false } },
    steps: [
      { command: 'input.fill', input: { target: 'label="Your name"', text: '{{your_name}}' } },
      { command: 'input.click', input: { target: 'role=button[name="Say hello"]' } },
    ],
  },
];
