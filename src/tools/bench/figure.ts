/** One measured figure of the bench: its samples and their median (the number the report prints). */
export interface Figure {
  name: string;
  medianMs: number;
  samples: number[];
}
