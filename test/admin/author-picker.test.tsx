import { component$, useSignal } from '@builder.io/qwik';
import { createDOM } from '@builder.io/qwik/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorPicker } from '../../admin-qwik/src/components/articles/author-picker';
import type { AuthorDto } from '../../admin-qwik/src/lib/catalog';

const author = (id: string, name: string) =>
  ({ id, name, slug: id, bio: null, avatarUrl: null, createdAt: '', updatedAt: '' }) as unknown as AuthorDto;
const AUTHORS = [author('a1', 'Ada'), author('b2', 'Brian'), author('c3', 'Chen')];

/** The picker with the signal the editor would own, shown so the test can read the order it holds. */
const Harness = component$((props: { initial: string[] }) => {
  const selected = useSignal(props.initial);
  return (
    <div>
      <AuthorPicker authors={AUTHORS} selected={selected} />
      <output id="order">{selected.value.join(',')}</output>
    </div>
  );
});

/**
 * The author picker rendered by Qwik's own test renderer (createDOM: the
 * optimizer, the real runtime and a server-side DOM), clicks dispatched to
 * its handlers. Its handlers reach for `document` (focus, the select), so
 * the fixture's document is made the global one for the test.
 */
async function mount(initial: string[]) {
  const dom = await createDOM();
  (globalThis as { document?: Document }).document = dom.screen.ownerDocument;
  await dom.render(<Harness initial={initial} />);
  const order = () => dom.screen.querySelector('#order')!.textContent;
  const names = () => Array.from(dom.screen.querySelectorAll('.author-name')).map((el) => el.textContent);
  const button = (label: string) => dom.screen.querySelector(`button[aria-label="${label}"]`) as HTMLButtonElement;
  return { ...dom, order, names, button };
}

afterEach(async () => {
  // The handlers move focus in a timeout: let those run while the document is still there.
  await new Promise((resolve) => setTimeout(resolve, 10));
  delete (globalThis as { document?: Document }).document;
});

describe('AuthorPicker (Qwik component)', () => {
  it('lists the selected authors in order, the ends unable to move further', async () => {
    const { names, button } = await mount(['b2', 'a1']);
    expect(names()).toEqual(['Brian', 'Ada']);
    expect(button('Move Brian up').disabled).toBe(true);
    expect(button('Move Brian down').disabled).toBe(false);
    expect(button('Move Ada down').disabled).toBe(true);
  });

  it('moves an author down and up, and removes one', async () => {
    const { userEvent, order, names, button } = await mount(['a1', 'b2', 'c3']);
    await userEvent(button('Move Ada down'), 'click');
    expect(order()).toBe('b2,a1,c3');
    expect(names()).toEqual(['Brian', 'Ada', 'Chen']);
    await userEvent(button('Move Chen up'), 'click');
    expect(order()).toBe('b2,c3,a1');
    await userEvent(button('Remove Brian'), 'click');
    expect(order()).toBe('c3,a1');
    expect(names()).toEqual(['Chen', 'Ada']);
  });

  it('offers only authors not yet chosen, adds the chosen one at the end, and ignores an empty choice', async () => {
    const { screen, userEvent, order } = await mount(['b2']);
    const select = screen.querySelector('#author-add') as HTMLSelectElement;
    const options = () => Array.from(screen.querySelectorAll('#author-add option')).map((o) => o.getAttribute('value'));
    expect(options()).toEqual(['', 'a1', 'c3']);
    const add = Array.from(screen.querySelectorAll('button')).find((b) => b.textContent === 'Add author')!;
    await userEvent(add, 'click');
    expect(order()).toBe('b2');
    select.value = 'c3';
    await userEvent(add, 'click');
    expect(order()).toBe('b2,c3');
    expect(options()).toEqual(['', 'a1']);
  });
});
