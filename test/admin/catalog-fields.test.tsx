import { createDOM } from '@builder.io/qwik/testing';
import { describe, expect, it } from 'vitest';
import { Fields } from '../../admin-qwik/src/components/catalog/catalog-fields';
import type { FieldDef } from '../../admin-qwik/src/lib/catalog';

const STATUS: FieldDef = {
  name: 'status',
  label: 'Status',
  type: 'select',
  required: true,
  hint: 'How browsers and search engines are told the page moved.',
  options: [
    { value: 301, label: '301 Moved permanently' },
    { value: 302, label: '302 Found' },
    { value: 307, label: '307 Temporary redirect' },
    { value: 308, label: '308 Permanent redirect' },
  ],
};
const KIND: FieldDef = { ...STATUS, name: 'kind', label: 'Kind', required: false, hint: undefined, options: [] };
const NAME: FieldDef = { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 200 };

// The attribute, not the property: the test DOM's option.value falls back to the text when the value is empty.
const optionsOf = (select: HTMLSelectElement) =>
  Array.from(select.options).map((o) => [o.getAttribute('value'), o.textContent]);
const selectedOf = (select: HTMLSelectElement) =>
  Array.from(select.options)
    .filter((o) => o.hasAttribute('selected'))
    .map((o) => o.value);

describe('catalogue form fields (Qwik component)', () => {
  it('draws a select of fixed options with its label and hint, the stored value chosen', async () => {
    const { screen, render } = await createDOM();
    await render(<Fields fields={[NAME, STATUS]} prefix="e-1" values={{ status: 307 }} issues={[]} notes={{}} />);
    const select = screen.querySelector<HTMLSelectElement>('select#e-1-status')!;
    expect(select.getAttribute('name')).toBe('status');
    expect(select.hasAttribute('required')).toBe(true);
    expect(screen.querySelector('label[for="e-1-status"]')!.textContent).toBe('Status');
    expect(select.getAttribute('aria-describedby')).toBe('e-1-status-hint');
    expect(screen.querySelector('#e-1-status-hint')!.textContent).toBe(STATUS.hint);
    expect(optionsOf(select)).toEqual([
      ['301', '301 Moved permanently'],
      ['302', '302 Found'],
      ['307', '307 Temporary redirect'],
      ['308', '308 Permanent redirect'],
    ]);
    expect(selectedOf(select)).toEqual(['307']);
    // A text field beside it keeps its own attributes.
    expect(screen.querySelector('input#e-1-name')!.getAttribute('maxlength')).toBe('200');
  });

  it('chooses nothing on a new item, offers "Not set" first when optional, and ties an error to the field', async () => {
    const { screen, render } = await createDOM();
    await render(
      <Fields
        fields={[STATUS, { ...KIND, options: [{ value: 'a', label: 'A' }] }]}
        prefix="new"
        values={{}}
        issues={[{ path: 'status', message: 'Status must be one of 301, 302, 307, 308' }]}
        notes={{}}
      />,
    );
    const status = screen.querySelector<HTMLSelectElement>('select#new-status')!;
    expect(selectedOf(status)).toEqual([]);
    expect(status.getAttribute('aria-invalid')).toBe('true');
    expect(status.getAttribute('aria-describedby')).toBe('new-status-hint new-status-error');
    expect(screen.querySelector('#new-status-error')!.textContent).toBe('Status must be one of 301, 302, 307, 308');
    const kind = screen.querySelector<HTMLSelectElement>('select#new-kind')!;
    expect(kind.hasAttribute('required')).toBe(false);
    expect(optionsOf(kind)).toEqual([
      ['', 'Not set'],
      ['a', 'A'],
    ]);
    expect(screen.querySelector('label[for="new-kind"]')!.textContent).toBe('Kind (optional)');
  });
});
