import { $, component$, useSignal } from '@builder.io/qwik';
import { createDOM } from '@builder.io/qwik/testing';
import { describe, expect, it } from 'vitest';
import { ActionChart, DayChart } from '../../admin-qwik/src/components/activity/activity-charts';
import { ConfirmButton } from '../../admin-qwik/src/components/ui/confirm-button';

const texts = (root: Element, selector: string) =>
  Array.from(root.querySelectorAll(selector)).map((el) => el.textContent);
const buttonNamed = (root: Element, name: string) =>
  Array.from(root.querySelectorAll('button')).find((b) => b.textContent?.trim() === name) ?? null;

describe('activity charts (Qwik components)', () => {
  it('draws a column per day, the missing days as empty columns, and says the busiest day', async () => {
    const { screen, render } = await createDOM();
    await render(
      <DayChart
        byDay={[
          { day: '2026-02-27', count: 4 },
          { day: '2026-03-01', count: 2 },
        ]}
      />,
    );
    const bars = Array.from(screen.querySelectorAll('rect.chart-bar'));
    expect(bars.map((b) => [b.getAttribute('data-day'), b.getAttribute('data-count')])).toEqual([
      ['2026-02-27', '4'],
      ['2026-02-28', '0'],
      ['2026-03-01', '2'],
    ]);
    expect(bars.map((b) => Number(b.getAttribute('height')))).toEqual([76, 0, 38]);
    expect(screen.querySelector('svg')!.getAttribute('aria-label')).toBe(
      'Entries per day, 2026-02-27 to 2026-03-01: at most 4 on 2026-02-27.',
    );
  });

  it('says so when there is nothing, and bars actions up to the limit', async () => {
    const { screen, render } = await createDOM();
    await render(
      <div>
        <DayChart byDay={[]} />
        <ActionChart
          limit={2}
          byAction={[
            { action: 'auth.login', count: 10 },
            { action: 'article.create', count: 5 },
            { action: 'article.delete', count: 1 },
          ]}
        />
      </div>,
    );
    expect(screen.textContent).toContain('No entries in this period.');
    // In words, the code kept as the title.
    expect(texts(screen, '.bar-label span[title]')).toEqual(['Signed in', 'Created an article']);
    expect(Array.from(screen.querySelectorAll('.bar-label span[title]')).map((s) => s.getAttribute('title'))).toEqual([
      'auth.login',
      'article.create',
    ]);
    expect(Array.from(screen.querySelectorAll('.bar-list rect')).map((r) => r.getAttribute('width'))).toEqual([
      '100',
      '50',
    ]);
  });
});

/** A ConfirmButton whose action counts how often it ran, the count shown. */
const Counting = component$(() => {
  const runs = useSignal(0);
  return (
    <div>
      <ConfirmButton
        label="Delete"
        question="Delete it for good?"
        confirmLabel="Yes, delete"
        danger
        onConfirm$={$(() => void runs.value++)}
      />
      <output>{`${runs.value}`}</output>
    </div>
  );
});

describe('ConfirmButton (Qwik component)', () => {
  it('asks first; Cancel backs out without acting; the second press acts once and disarms', async () => {
    const { screen, render, userEvent } = await createDOM();
    await render(<Counting />);
    const runs = () => screen.querySelector('output')!.textContent;
    expect(buttonNamed(screen, 'Yes, delete')).toBeNull();

    await userEvent(buttonNamed(screen, 'Delete'), 'click');
    expect(screen.querySelector('[role="group"]')!.getAttribute('aria-label')).toBe('Delete it for good?');
    expect(buttonNamed(screen, 'Delete')).toBeNull();
    await userEvent(buttonNamed(screen, 'Cancel'), 'click');
    expect(buttonNamed(screen, 'Yes, delete')).toBeNull();
    expect(runs()).toBe('0');

    await userEvent(buttonNamed(screen, 'Delete'), 'click');
    await userEvent(buttonNamed(screen, 'Yes, delete'), 'click');
    expect(runs()).toBe('1');
    expect(buttonNamed(screen, 'Yes, delete')).toBeNull();
    expect(buttonNamed(screen, 'Delete')!.className).toContain('button-danger');
  });
});
