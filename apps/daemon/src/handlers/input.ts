import type { Handlers } from '@argus/protocol';
import { click, fill, focus, hover, selectOption } from '@argus/snapshot';
import type { Services } from '../services.js';

export function inputHandlers(services: Services): Handlers['input'] {
  const { manager } = services;
  return {
    click: (input) =>
      manager.onTab(input.tab, async (page) => {
        const { value, effects } = await page.act(() => click(manager.engine(page), input.target, { timeoutMs: input.timeoutMs, button: input.button, double: input.double }));
        return { ...effects, element: value.element };
      }),
    hover: (input) =>
      manager.onTab(input.tab, async (page) => {
        const { value, effects } = await page.act(() => hover(manager.engine(page), input.target, { timeoutMs: input.timeoutMs }));
        return { ...effects, element: value.element };
      }),
    fill: (input) =>
      manager.onTab(input.tab, async (page) => {
        const { value, effects } = await page.act(() => fill(manager.engine(page), input.target, input.text, { timeoutMs: input.timeoutMs }));
        return { ...effects, element: value.element, value: value.value };
      }),
    type: (input) =>
      manager.onTab(input.tab, async (page) => {
        const { effects } = await page.act(async () => {
          if (input.target) await focus(manager.engine(page), input.target, { timeoutMs: input.timeoutMs });
          await page.typeText(input.text);
        });
        return effects;
      }),
    press: (input) =>
      manager.onTab(input.tab, async (page) => {
        const { effects } = await page.act(() => page.press(input.key));
        return effects;
      }),
    select: (input) =>
      manager.onTab(input.tab, async (page) => {
        const { value, effects } = await page.act(() => selectOption(manager.engine(page), input.target, input.value, { timeoutMs: input.timeoutMs }));
        return { ...effects, element: value.element, selected: value.selected };
      }),
  };
}
