import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

/** Each field of the fixture and the accessible name Chrome gives it. */
const FIELDS: Array<[id: string, name: string]> = [
  ['f-labelledby', 'Billing street'], // aria-labelledby with two ids
  ['f-aria', 'Coupon code'], // aria-label beats the placeholder
  ['f-wrapping', 'Full name'], // a wrapping <label>
  ['f-for', 'Email address'], // label[for] beats the placeholder
  ['f-placeholder', 'Search the catalogue'], // placeholder only
  ['f-title', 'Phone number'], // title only
  ['f-legend-a', 'Standard'], // inside a fieldset: its own label, not the legend
  ['f-legend-b', 'Express'],
  ['f-hidden-part', 'Password'], // display:none text inside the label is not part of the name
  ['f-sr-only', 'Quantity'], // a visually hidden (sr-only) label still names the field
  ['f-hidden-ref', 'Gift message'], // aria-labelledby may point at hidden text
  ['f-select', 'Country (flag)'], // an image in the label counts by its alt
];

describe('one accessible name for snapshot -i, forms and label= locators', () => {
  it('agree for every field of the tricky-labels fixture', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/tricky-labels.html') });
    const snapshot = (await h.client.snapshot.take.mutate({ interactive: true })).text;
    const { forms } = await h.client.read.forms.mutate({});
    const fields = forms.flatMap((form) => form.fields);
    for (const [id, name] of FIELDS) {
      const field = fields.find((candidate) => candidate.id === id);
      expect(field, id).toBeDefined();
      // forms: the label is the accessible name
      expect(field!.label, id).toBe(name);
      // snapshot -i: the field's line carries the same name and the ref forms reports
      expect(field!.ref, id).toMatch(/^e\d+$/);
      const line = snapshot.split('\n').find((text) => new RegExp(`\\b${field!.ref}\\b`).test(text));
      expect(line, `${id} in\n${snapshot}`).toBeDefined();
      expect(line, id).toContain(` "${name}" `);
      // label="<name>" finds exactly this field
      const found = await h.client.inspect.attrs.query({ target: `label="${name}"` });
      expect(found.attributes.id, id).toBe(id);
    }
  });

  it('a label= locator by a part of a name the page hides matches nothing', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/tricky-labels.html') });
    await expect(h.client.inspect.attrs.query({ target: 'label="Password (old scheme)"' })).rejects.toThrow();
  });
});
