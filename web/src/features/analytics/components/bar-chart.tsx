import { AxisBottom, AxisLeft } from '@visx/axis';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useLayoutEffect, useRef, useState } from 'react';

/** One series of bars: its name (legend and hover text), its value per item and its colour class. */
export type Series<T> = { name: string; value: (item: T) => number; className: string };

const MARGIN = { top: 12, right: 8, bottom: 28 };
/** About the width of one character of the axes' 11px labels. */
const CHARACTER = 6.5;
/** Category labels need at least this many pixels each; past that only every n-th is shown. */
const LABEL_WIDTH = 72;

/**
 * The size of the element `ref` is given to: measured before the first paint (so the
 * chart is drawn with the screen's data, not a few frames later), then again whenever the
 * element changes size.
 */
function useSize() {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    const measure = () => {
      const { width, height } = node.getBoundingClientRect();
      setSize((was) => (was.width === width && was.height === height ? was : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return { ref, ...size };
}

/** `text` cut to `characters`, with an ellipsis when it was longer. */
const fit = (text: string, characters: number) => (text.length <= characters ? text : `${text.slice(0, Math.max(1, characters - 1))}…`);

/**
 * Bars per category, one bar per series, with an integer axis and a legend when there is
 * more than one series. The chart fills its parent's width and height; the numbers are
 * also in each bar's hover text and in the card's table.
 */
export function BarChart<T>({ data, category, series }: { data: readonly T[]; category: (item: T) => string; series: readonly Series<T>[] }) {
  const { ref, width, height } = useSize();
  const highest = Math.max(1, ...data.flatMap((item) => series.map((one) => one.value(item))));
  const innerHeight = Math.max(0, height - MARGIN.top - MARGIN.bottom - (series.length > 1 ? 24 : 0));
  const y = scaleLinear<number>({ domain: [0, highest], range: [innerHeight, 0], nice: true });
  const yTicks = y.ticks(Math.min(5, highest)).filter(Number.isInteger);
  // Room for the longest value label, so no figure is cut at the chart's edge.
  const left = 12 + CHARACTER * Math.max(1, ...yTicks.map((tick) => String(tick).length));
  const innerWidth = Math.max(0, width - left - MARGIN.right);
  const rows = data.map((item) => ({ item, label: category(item) }));
  const categories = rows.map((row) => row.label);
  const x = scaleBand<string>({ domain: categories, range: [0, innerWidth], padding: 0.2 });
  const inner = scaleBand<number>({ domain: series.map((_, index) => index), range: [0, x.bandwidth()], padding: 0.1 });
  const every = Math.max(1, Math.ceil((categories.length * LABEL_WIDTH) / Math.max(1, innerWidth)));
  const shown = categories.filter((_, index) => index % every === 0);
  // A label may take the width of the categories it stands for, less a gap.
  const characters = Math.floor((x.step() * every - 8) / CHARACTER);

  return (
    <div ref={ref} className="flex h-full w-full flex-col">
      {width > 0 && height > 0 && (
        <svg className="chart" width={width} height={height - (series.length > 1 ? 24 : 0)}>
          <Group left={left} top={MARGIN.top}>
            <GridRows scale={y} width={innerWidth} tickValues={yTicks} className="stroke-border" strokeDasharray="3 3" />
            {rows.map(({ item, label }, index) => (
              <Group key={`${label}-${index}`} left={x(label) ?? 0}>
                {series.map((one, at) => {
                  const value = one.value(item);
                  return (
                    <Bar key={one.name} x={inner(at) ?? 0} y={y(value)} width={inner.bandwidth()} height={innerHeight - y(value)} className={one.className}>
                      <title>{`${label}: ${one.name} ${value}`}</title>
                    </Bar>
                  );
                })}
              </Group>
            ))}
            <AxisLeft scale={y} tickValues={yTicks} tickFormat={(value) => String(value)} stroke="currentColor" tickStroke="currentColor" tickLabelProps={{ fill: 'currentColor', fontSize: 11, textAnchor: 'end', dx: -4, dy: 3 }} />
            <AxisBottom
              top={innerHeight}
              scale={x}
              tickValues={shown}
              tickFormat={(label) => fit(label, characters)}
              stroke="currentColor"
              tickStroke="currentColor"
              tickLabelProps={{ fill: 'currentColor', fontSize: 11, textAnchor: 'middle' }}
            />
          </Group>
        </svg>
      )}
      {series.length > 1 && (
        <ul className="flex h-6 items-center justify-center gap-4 text-xs">
          {series.map((one) => (
            <li key={one.name} className="flex items-center gap-1">
              <svg width="10" height="10" aria-hidden="true">
                <rect width="10" height="10" className={one.className} />
              </svg>
              {one.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
