/**
 * The balance chart's drawing (recharts: docs/reference/libraries.md), in its own module so the
 * bundler gives recharts its own chunk. The SVG is named by its `<title>` and described by its
 * `<desc>`; recharts' accessibility layer lets the arrow keys move the tooltip from day to day.
 * Colours come from the console's CSS (styles.css), so light and dark both read.
 */
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay, formatDayShort, formatMoney, formatMoneyCompact } from '../lib/format.ts';

export default function BalancePlot({
  points,
  title,
  desc,
}: {
  points: { date: string; balance: number }[];
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
        tickFormatter={(value: number) => formatMoneyCompact(value)}
        tick={{ className: 'chart-tick' }}
        allowDecimals={false}
      />
      <Tooltip
        formatter={(value) => [formatMoney(Number(value)), 'Balance']}
        labelFormatter={(label) => formatDay(String(label))}
        contentStyle={{ background: 'var(--surface)', borderColor: 'var(--border)', color: 'var(--text)' }}
        itemStyle={{ color: 'var(--text)' }}
      />
      <Line type="linear" dataKey="balance" name="Balance" className="chart-line" dot={false} isAnimationActive={false} />
    </LineChart>
  );
}
