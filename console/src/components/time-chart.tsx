import { useEffect, useRef } from 'preact/hooks';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface SeriesSpec {
  label: string;
  color: string;
  /** Which y scale: 'y' (left axis) or 'y2' (right axis). */
  scale?: 'y' | 'y2';
  dash?: number[];
  bars?: boolean;
}

export interface Marker {
  /** Unix seconds. */
  at: number;
  label: string;
}

interface Props {
  id: string;
  title: string;
  /** What the chart shows, for screen readers (a canvas has no text of its own). */
  summary: string;
  /** x: Unix seconds; then one array per series (null: no value). */
  data: AlignedData;
  series: SeriesSpec[];
  yLabel: string;
  y2Label?: string;
  markers?: Marker[];
  /** The x range in Unix seconds (default: the data's); a range up to now shows a change made in the current hour. */
  xRange?: [number, number];
  /** A fixed range for the right axis (a success rate stays 0-100: one point is not a cliff). */
  y2Range?: [number, number];
  height?: number;
}

/**
 * A uPlot time chart. uPlot writes labels with textContent and styles through the CSSOM, so API
 * strings in series names stay text and the page needs no inline style under its CSP. The
 * figure gets data-drawn once uPlot has drawn, which the tests and the benchmark wait for.
 */
export function TimeChart(props: Props) {
  const figure = useRef<HTMLElement>(null);
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = target.current;
    if (!element || !figure.current) return;
    const fig = figure.current;
    fig.removeAttribute('data-drawn');
    const width = Math.max(320, element.clientWidth);
    const chart = new uPlot(options(props, width), props.data, element);
    fig.setAttribute('data-drawn', 'true');
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(320, element.clientWidth), height: props.height ?? 240 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props.data, props.series, props.markers]);
  return (
    <figure class="chart" data-chart={props.id} ref={figure}>
      <figcaption>{props.title}</figcaption>
      <div ref={target} role="img" aria-label={`${props.title}: ${props.summary}`} />
    </figure>
  );
}

function options(props: Props, width: number): Options {
  const hasY2 = props.series.some((s) => s.scale === 'y2');
  return {
    width,
    height: props.height ?? 240,
    // Times in UTC, as everywhere else in the console and the API.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: {
      x: { time: true, ...(props.xRange ? { range: () => props.xRange! } : {}) },
      y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] },
      ...(props.y2Range ? { y2: { range: () => props.y2Range! } } : {}),
    },
    axes: [
      { stroke: '#44505f' },
      { label: props.yLabel, stroke: '#44505f', size: 60 },
      ...(hasY2
        ? [{ side: 1, scale: 'y2', label: props.y2Label, stroke: '#44505f', grid: { show: false }, size: 60 }]
        : []),
    ],
    series: [
      { label: 'Time' },
      ...props.series.map((s) => ({
        label: s.label,
        stroke: s.color,
        width: 2,
        scale: s.scale ?? 'y',
        dash: s.dash,
        spanGaps: false,
        ...(s.bars
          ? { fill: `${s.color}55`, paths: uPlot.paths.bars!({ size: [0.7, 40] }), points: { show: false } }
          : {}),
      })),
    ],
    hooks: { draw: [(u: uPlot) => drawMarkers(u, props.markers ?? [])] },
  };
}

/** Configuration changes as dashed vertical lines with their label: "what changed before p95 jumped". */
function drawMarkers(u: uPlot, markers: Marker[]): void {
  const { ctx } = u;
  const { top, height } = u.bbox;
  ctx.save();
  ctx.strokeStyle = '#b4451f';
  ctx.fillStyle = '#b4451f';
  ctx.setLineDash([4, 4]);
  ctx.lineWidth = 1.5 * devicePixelRatio;
  ctx.font = `${11 * devicePixelRatio}px system-ui, sans-serif`;
  for (const [i, marker] of markers.entries()) {
    const x = u.valToPos(marker.at, 'x', true);
    if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
    // Near the right edge the label goes to the left of its line.
    const width = ctx.measureText(marker.label).width;
    const right = x + 4 * devicePixelRatio + width <= u.bbox.left + u.bbox.width;
    ctx.fillText(
      marker.label,
      right ? x + 4 * devicePixelRatio : x - 4 * devicePixelRatio - width,
      top + (12 + 14 * (i % 3)) * devicePixelRatio, // staggered: changes minutes apart would overlap
    );
  }
  ctx.restore();
}
