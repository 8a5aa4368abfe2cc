import type { Handlers } from '@argus/protocol';
import { cannotFocus, click, fill, focus, hover, selectOption, sendKeys, typingTarget } from '@argus/snapshot';
import { actAndReport } from '../action-result.js';
import type { Services } from '../services.js';

export function inputHandlers(
  services: Services,
): Pick<Handlers['input'], 'click' | 'hover' | 'fill' | 'type' | 'press' | 'select'> {
  const { manager } = services;
  return {
    click: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        const { value, effects } = await actAndReport(manager, page, { ...input, targetSeen: true }, (onElement) =>
          click(engine, input.target, {
            timeoutMs: input.timeoutMs,
            button: input.button,
            double: input.double,
            onElement,
          }),
        );
        // the page took the element out as it was pressed: done, said with where the release went
        return { ...effects, element: value.element, ...(value.goneOnPress ? { goneOnPress: value.goneOnPress } : {}) };
      }),
    hover: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        const { value, effects } = await actAndReport(manager, page, { ...input, targetSeen: true }, (onElement) =>
          hover(engine, input.target, { timeoutMs: input.timeoutMs, onElement }),
        );
        return { ...effects, element: value.element };
      }),
    fill: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        const { value, effects } = await actAndReport(manager, page, { ...input, targetSeen: true }, (onElement) =>
          fill(engine, input.target, input.text, { timeoutMs: input.timeoutMs, onElement }),
        );
        // the value (cut when long, with its length and whether it is all the text given)
        return { ...effects, ...value };
      }),
    type: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        const { value, effects } = await actAndReport(
          manager,
          page,
          { ...input, targetSeen: true },
          async (onElement) => {
            const focused = input.target
              ? await focus(engine, input.target, { timeoutMs: input.timeoutMs, onElement })
              : undefined;
            // where the keys go, said in the reply: typing with nothing editable focused is a lost call
            // (inside a frame when they go into it, as press says)
            const into = await typingTarget(engine);
            // the target did not keep the focus (a heading, a plain div): the keys would go to the page
            if (focused && into.element === null) throw cannotFocus(focused.element);
            await page.typeText(input.text);
            return into;
          },
        );
        return { ...effects, typedInto: value.element, editable: value.editable };
      }),
    press: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        const { value: target, effects } = await actAndReport(manager, page, input, async () => {
          // where the keys go, read just before them (inside a frame when they go into it)
          const { target } = await sendKeys(engine, () => page.press(input.key));
          return target;
        });
        return target ? { ...effects, element: target.element } : effects;
      }),
    select: (input) =>
      manager.onTab(input.tab, async (page) => {
        const engine = manager.engine(page);
        const { value, effects } = await actAndReport(manager, page, { ...input, targetSeen: true }, (onElement) =>
          selectOption(engine, input.target, input.value, { timeoutMs: input.timeoutMs, onElement }),
        );
        return { ...effects, element: value.element, selected: value.selected };
      }),
  };
}
