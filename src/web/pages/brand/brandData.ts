import type { Response } from 'express';
import type { z } from 'zod';
import type { brand } from '../../../../tools/brand/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { readOperation } from '../../operations.js';

export type Brand = z.infer<typeof brand>;

/** The brand memory as get_brand answers it: every Brand page shows and edits a part of it. */
export const readBrandMemory = (deps: DashboardDeps, res: Response): Promise<Brand> => readOperation<Brand>(deps, res, 'get_brand');
