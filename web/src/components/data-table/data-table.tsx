import { useTable, type RowData } from '@tanstack/react-table';
import type { KeyboardEvent, ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { appTableFeatures, type DataTableColumns } from './table-features';

export interface DataTableProps<TData extends RowData> {
  columns: DataTableColumns<TData>;
  data: TData[];
  getRowId: (row: TData) => string;
  /** Accessible name of the table. */
  caption: string;
  emptyText: ReactNode;
  loading?: boolean;
  onRowClick?: (row: TData) => void;
  rowClassName?: (row: TData) => string | undefined;
}

export function DataTable<TData extends RowData>({ columns, data, getRowId, caption, emptyText, loading = false, onRowClick, rowClassName }: DataTableProps<TData>) {
  const table = useTable({
    features: appTableFeatures,
    columns,
    data,
    getRowId: (row) => getRowId(row),
  });
  const rows = table.getRowModel().rows;
  const columnCount = table.getAllLeafColumns().length;

  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, row: TData) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick?.(row);
    }
  };

  return (
    // `relative` makes the box the containing block of the cells' screen-reader-only
    // text too, so a wide table scrolls here instead of widening the page on a phone.
    <div className="relative overflow-x-auto rounded-md border">
      <table className="w-full caption-bottom text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60">
          {table.getHeaderGroups().map((headerGroup) => (
            <tr key={headerGroup.id} className="border-b">
              {headerGroup.headers.map((header) => (
                <th
                  key={header.id}
                  scope="col"
                  className={cn('h-10 px-3 text-left align-middle font-medium text-muted-foreground', header.column.columnDef.meta?.headerClassName)}
                >
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {loading && rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="h-24 text-center text-muted-foreground">
                Loading...
              </td>
            </tr>
          ) : rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="h-24 text-center text-muted-foreground">
                {emptyText}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr
                key={row.id}
                className={cn('border-b transition-colors', onRowClick && 'cursor-pointer hover:bg-muted/50', rowClassName?.(row.original))}
                onClick={onRowClick ? () => onRowClick(row.original) : undefined}
                onKeyDown={onRowClick ? (event) => onRowKey(event, row.original) : undefined}
                tabIndex={onRowClick ? 0 : undefined}
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className={cn('px-3 py-2 align-middle', cell.column.columnDef.meta?.className)}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Stops a click on a control inside a clickable row from also opening the row. */
export function stopRowClick(event: { stopPropagation: () => void }): void {
  event.stopPropagation();
}
