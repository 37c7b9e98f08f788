import { createColumnHelper, tableFeatures, type ColumnHelper, type RowData } from '@tanstack/react-table';

/** Every table pages, filters and sorts on the server, so only the core features are needed. */
interface AppColumnMeta {
  className?: string;
  headerClassName?: string;
}

const columnMeta: AppColumnMeta = {};

export const appTableFeatures = tableFeatures({ columnMeta });

export type AppTableFeatures = typeof appTableFeatures;

export function columnHelper<TData extends RowData>(): ColumnHelper<AppTableFeatures, TData> {
  return createColumnHelper<AppTableFeatures, TData>();
}

/** What `columnHelper<T>().columns([...])` returns. */
export type DataTableColumns<TData extends RowData> = ReturnType<ColumnHelper<AppTableFeatures, TData>['columns']>;
