import { component$ } from '@builder.io/qwik';
import { type ActivitySummaryDto, fillDays } from '../../lib/activity';
import { actionLabel } from '../../lib/activity-labels';

/**
 * The summary's two small charts, drawn as inline SVG (no chart library, no
 * script): entries per day as columns, entries per action as bars. Each has
 * a text alternative, and the numbers are in a table under a disclosure.
 */
export const DayChart = component$((props: { byDay: ActivitySummaryDto['byDay'] }) => {
  const days = fillDays(props.byDay);
  if (days.length === 0) return <p>No entries in this period.</p>;
  const max = Math.max(...days.map((d) => d.count), 1);
  const W = 300;
  const H = 80;
  const step = W / days.length;
  const bar = Math.max(1, step * 0.75);
  const busiest = days.reduce((a, b) => (b.count > a.count ? b : a));
  return (
    <figure class="chart" data-testid="chart-by-day">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        height={H}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Entries per day, ${days[0]!.day} to ${days[days.length - 1]!.day}: at most ${busiest.count} on ${busiest.day}.`}
      >
        <line x1="0" y1={H - 0.5} x2={W} y2={H - 0.5} class="chart-axis" />
        {days.map((d, i) => {
          const h = d.count === 0 ? 0 : Math.max(2, (d.count / max) * (H - 4));
          return (
            <rect
              key={d.day}
              class="chart-bar"
              x={i * step + (step - bar) / 2}
              y={H - h}
              width={bar}
              height={h}
              data-day={d.day}
              data-count={d.count}
            >
              <title>{`${d.day}: ${d.count}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption class="chart-caption">
        <span>{days[0]!.day}</span>
        <span>{`max ${max} a day`}</span>
        <span>{days[days.length - 1]!.day}</span>
      </figcaption>
    </figure>
  );
});

export const ActionChart = component$((props: { byAction: ActivitySummaryDto['byAction']; limit?: number }) => {
  const rows = props.byAction.slice(0, props.limit ?? 10);
  if (rows.length === 0) return null;
  const max = Math.max(...rows.map((r) => r.count), 1);
  return (
    <ul class="bar-list" aria-label="Entries per action" data-testid="chart-by-action">
      {rows.map((r) => (
        <li key={r.action}>
          <span class="bar-label">
            <span title={r.action}>{actionLabel(r.action)}</span>
            <span>{`${r.count}`}</span>
          </span>
          <svg
            viewBox="0 0 100 8"
            width="100%"
            height="8"
            preserveAspectRatio="none"
            aria-hidden="true"
            focusable="false"
          >
            <rect class="chart-bar" x="0" y="0" width={Math.max(1, (r.count / max) * 100)} height="8" rx="1" />
          </svg>
        </li>
      ))}
    </ul>
  );
});
