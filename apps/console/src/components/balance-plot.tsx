/**
 * The balance chart's drawing (recharts: docs/reference/libraries.md), in its own module so the
 * bundler gives recharts its own chunk. The SVG is named by its `<title>` and described by its
 * `<desc>`; recharts' accessibility layer lets the arrow keys move the tooltip from day to day.
 * Colours come from the console's CSS (styles.css), so light and dark both read.
 */
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay, formatDayShort, formatMoney, formatMoneyCompact } from '../lib/format.ts';

/** Ticks are whole złoty at least: a flat or nearly flat balance gets a 100 zł span around it, not five "0 zł". */
const MIN_SPAN = 100_00;
export const yDomain = ([low, high]: readonly [number, number]): [number, number] => {
  if (high - low >= MIN_SPAN) return [low, high];
  const start = Math.floor(low / MIN_SPAN) * MIN_SPAN;
  return [start, Math.max(start + MIN_SPAN, Math.ceil(high / MIN_SPAN) * MIN_SPAN)];
};

export default function BalancePlot({
  points,
  currency,
  title,
  desc,
}: {
  points: { date: string; balance: number }[];
  /** The account's currency: every balance is in its minor units. */
  currency: string;
  title: string;
  desc: string;
}) {
  return (
    <LineChart
      responsive
      data={points}
      title={title}
      desc={desc}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      className="chart"
    >
      <CartesianGrid className="chart-grid" vertical={false} />
      <XAxis dataKey="date" tickFormatter={formatDayShort} minTickGap={24} tick={{ className: 'chart-tick' }} />
      <YAxis
        width={72}
        domain={yDomain}
        tickFormatter={(value: number) => formatMoneyCompact(value, currency)}
        tick={{ className: 'chart-tick' }}
        allowDecimals={false}
      />
      <Tooltip
        formatter={(value) => [formatMoney(Number(value), currency), 'Balance']}
        labelFormatter={(label) => formatDay(String(label))}
        contentStyle={{ background: 'var(--surface)', borderColor: 'var(--border)', color: 'var(--text)' }}
        itemStyle={{ color: 'var(--text)' }}
      />
      <Line type="linear" dataKey="balance" name="Balance" className="chart-line" dot={false} isAnimationActive={false} />
    </LineChart>
  );
}
