/**
 * The MGPS prior's hyperparameters, declared once (DuMouchel 1999, "Bayesian data mining in large
 * frequency tables", The American Statistician 53(3):177-190): the prior of a pair's ratio is
 * `p Gamma(alpha1, beta1) + (1 - p) Gamma(alpha2, beta2)` (shape, rate). The statistics
 * (src/stats/mgps.ts), the store's `windows` table, the fits of GET /analyses/NAME and the CLI's
 * `--hyper` all take their names and order from here.
 */

/** The five hyperparameters in parameter-vector order (openEBGM's `theta_init` order). */
export const HYPER_NAMES = ['alpha1', 'beta1', 'alpha2', 'beta2', 'p'] as const;

/** One hyperparameter's name. */
export type HyperName = (typeof HYPER_NAMES)[number];

/** The five MGPS hyperparameters: two gamma components (shape alpha, rate beta) and the weight p of the first. */
export type Hyperparameters = { [K in HyperName]: number };
