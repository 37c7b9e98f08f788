import { Download } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toCsv, type Figures } from './figure-table';

function download(name: string, figures: Figures) {
  const url = URL.createObjectURL(new Blob([toCsv(figures)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/** One figure: a chart (when given) with its numbers one click away as a table and a CSV. */
export function FigureCard({ id, title, description, figures, chart, csvName }: { id: string; title: string; description?: string; figures: Figures; chart?: ReactNode; csvName: string }) {
  const [showTable, setShowTable] = useState(!chart);
  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div>
          <CardTitle id={`${id}-title`}>{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </div>
        <div className="flex gap-1">
          {chart && (
            <Button size="sm" variant="ghost" onClick={() => setShowTable((shown) => !shown)} aria-pressed={showTable}>
              {showTable ? 'Chart' : 'Table'}
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={() => download(csvName, figures)} aria-label={`Download ${title} as CSV`}>
            <Download aria-hidden="true" />
            CSV
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {chart && !showTable ? (
          <div className="h-64 text-muted-foreground" role="img" aria-label={`${title} chart; use Table for the numbers`}>
            {chart}
          </div>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">{title}</caption>
              <thead>
                <tr className="border-b">
                  {figures.headers.map((header) => (
                    <th key={header} scope="col" className="p-2 text-left font-medium text-muted-foreground">
                      {header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {figures.rows.length === 0 ? (
                  <tr>
                    <td colSpan={figures.headers.length} className="p-2 text-muted-foreground">
                      Nothing in this range.
                    </td>
                  </tr>
                ) : (
                  figures.rows.map((row, index) => (
                    <tr key={index} className="border-b last:border-0">
                      {row.map((cell, column) => (
                        <td key={column} className="p-2">
                          {cell}
                        </td>
                      ))}
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
