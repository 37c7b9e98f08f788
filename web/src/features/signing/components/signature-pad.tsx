import { useEffect, useRef, type PointerEvent } from 'react';
import { Button } from '@/components/ui/button';
import type { Strokes } from '../api/types';

const WIDTH = 600;
const HEIGHT = 190;

/** A box to sign in with a finger, a pen or the mouse. It records strokes (points 0..1
 * of the box), which the server keeps and draws into the signed PDF. */
export function SignaturePad({ strokes, onChange, labelledBy }: { strokes: Strokes; onChange: (strokes: Strokes) => void; labelledBy: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);

  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, WIDTH, HEIGHT);
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#111827';
    for (const stroke of strokes) {
      context.beginPath();
      stroke.forEach(([x = 0, y = 0], index) => {
        const [px, py] = [x * WIDTH, y * HEIGHT];
        if (index === 0) context.moveTo(px, py);
        else context.lineTo(px, py);
      });
      context.stroke();
    }
  }, [strokes]);

  const point = (event: PointerEvent<HTMLCanvasElement>): number[] => {
    const box = event.currentTarget.getBoundingClientRect();
    const clamp = (value: number) => Math.min(1, Math.max(0, value));
    return [clamp((event.clientX - box.left) / box.width), clamp((event.clientY - box.top) / box.height)];
  };
  const start = (event: PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drawing.current = true;
    onChange([...strokes, [point(event)]]);
  };
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current || strokes.length === 0) return;
    const last = strokes[strokes.length - 1] ?? [];
    onChange([...strokes.slice(0, -1), [...last, point(event)]]);
  };
  const end = () => {
    drawing.current = false;
  };

  return (
    <div className="flex flex-col gap-2">
      <canvas
        ref={canvas}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-labelledby={labelledBy}
        data-testid="signature-pad"
        className="h-auto w-full touch-none rounded-md border-2 border-dashed border-input bg-background"
        onPointerDown={start}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={end}
        onPointerLeave={end}
      />
      <div>
        <Button variant="outline" size="sm" onClick={() => onChange([])} disabled={strokes.length === 0}>
          Clear signature
        </Button>
      </div>
    </div>
  );
}
