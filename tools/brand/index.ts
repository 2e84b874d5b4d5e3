import addBrandGuideline from './add_brand_guideline.js';
import confirmBrandReviewed from './confirm_brand_reviewed.js';
import draftBrandIcp from './draft_brand_icp.js';
import getBrand from './get_brand.js';
import removeBrandGuideline from './remove_brand_guideline.js';
import setBrandGuidelineActive from './set_brand_guideline_active.js';
import suggestBrandIcps from './suggest_brand_icps.js';
import updateBrandIdentity from './update_brand_identity.js';
import updateBrandProfile from './update_brand_profile.js';
import writeBrandIcp from './write_brand_icp.js';
import writeBrandProduct from './write_brand_product.js';

export const brandTools = [
  getBrand,
  updateBrandIdentity,
  updateBrandProfile,
  addBrandGuideline,
  setBrandGuidelineActive,
  removeBrandGuideline,
  writeBrandProduct,
  writeBrandIcp,
  draftBrandIcp,
  suggestBrandIcps,
  confirmBrandReviewed,
];
