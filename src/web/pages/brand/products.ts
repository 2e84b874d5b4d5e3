import type { Request, Response } from 'express';
import { PRODUCT_CATEGORIES } from '../../../brand/products.js';
import type { DashboardDeps } from '../../pageContext.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { readBrandMemory, type Brand } from './brandData.js';
import { choicesOf, listField, selectField, textArea, textField } from './fields.js';
import { editableRecord } from './record.js';
import type { DashboardPage } from '../../dashboardPage.js';

type Product = Brand['products'][number];

/** The fields of a product, blank to create one or prefilled to edit it. */
function productFields(product: Product | undefined): SafeHtml {
  return html`${textField('name', 'Name', product?.name, { required: product === undefined })}
${textArea('description', 'Description', product?.description, 'what the product does')}
${selectField('category', 'Category', choicesOf(PRODUCT_CATEGORIES), product?.category)}
${textField('url', 'Product page URL', product?.url, { type: 'url' })}
${textField('pricing', 'Pricing', product?.pricing, { placeholder: 'from $49 a month' })}
${listField('features', 'Features', product?.features ?? [])}
${listField('usps', 'Unique selling points', product?.usps ?? [])}`;
}

function productSection(res: Response, product: Product): SafeHtml {
  const { productId, name, createdAt: _createdAt, updatedAt, ...details } = product;
  return editableRecord(res, { title: name, details, updatedAt, operationId: 'write_brand_product', id: { productId }, fields: productFields(product), noun: 'product' });
}

export async function productsPage(deps: DashboardDeps, _req: Request, res: Response): Promise<void> {
  const { products } = await readBrandMemory(deps, res);
  showPage(
    deps,
    res,
    'Products',
    html`<p>Articles mention and link the products listed here.</p>
<h2>Products</h2>
${products.length === 0 ? html`<p class="muted">No products yet.</p>` : products.map((product) => productSection(res, product))}
<h2>Add a product</h2>
${operationForm(res, { operationId: 'write_brand_product', fields: productFields(undefined), button: 'Add product', id: 'add-product' })}`,
    { at: 'brand/products' },
  );
}

export const BRAND_PRODUCTS: DashboardPage = {
  area: 'brand',
  path: 'brand/products',
  title: 'Products',
  show: productsPage,
};
