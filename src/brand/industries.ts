/** The dashboard's industry list: each industry with the sub-industries that may be chosen under it. */
export const INDUSTRIES: Readonly<Record<string, readonly string[]>> = {
  'Software & SaaS': ['Developer tools', 'Marketing software', 'Sales software', 'HR software', 'Finance software', 'Security', 'Data & analytics', 'Productivity', 'AI & machine learning'],
  'E-commerce & retail': ['Fashion & apparel', 'Beauty & personal care', 'Home & garden', 'Electronics', 'Food & beverage', 'Sports & outdoors', 'Marketplaces'],
  'Agencies & services': ['Marketing agency', 'SEO agency', 'Design agency', 'Consulting', 'Recruiting', 'IT services'],
  'Finance': ['Banking', 'Insurance', 'Payments', 'Investing', 'Accounting', 'Crypto'],
  'Health': ['Clinics & practices', 'Digital health', 'Fitness & wellness', 'Pharma & biotech', 'Mental health', 'Dental'],
  'Education': ['Online courses', 'Schools & universities', 'Tutoring', 'Corporate training', 'EdTech'],
  'Real estate': ['Agencies & brokers', 'Property management', 'PropTech', 'Construction'],
  'Travel & hospitality': ['Hotels & lodging', 'Restaurants', 'Tours & experiences', 'Travel agencies'],
  'Legal': ['Law firms', 'Legal tech'],
  'Manufacturing & industrial': ['Machinery', 'Automotive', 'Chemicals', 'Electronics manufacturing', 'Logistics & supply chain'],
  'Media & publishing': ['News', 'Blogs & creators', 'Podcasts', 'Entertainment'],
  'Local services': ['Home services', 'Automotive services', 'Beauty salons', 'Cleaning', 'Trades'],
  'Nonprofit & public sector': ['Charities', 'Government', 'Associations'],
  'Other': [],
};

export function isIndustry(value: string): boolean {
  return Object.hasOwn(INDUSTRIES, value);
}

export function isSubIndustryOf(industry: string, subIndustry: string): boolean {
  return INDUSTRIES[industry]?.includes(subIndustry) ?? false;
}
