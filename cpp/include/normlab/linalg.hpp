// normlab core: small dense linear algebra in double, for whitening and the
// figures (matrices here are at most a few hundred wide).
#pragma once

#include <cstddef>
#include <vector>

namespace normlab {

/// Eigen-decomposition of the symmetric n x n matrix `a` (row-major) by cyclic
/// Jacobi rotations. On return a's diagonal holds the eigenvalues and `vecs`
/// the eigenvectors as columns.
void jacobi_eigen(std::vector<double>& a, std::size_t n, std::vector<double>& vecs);

}  // namespace normlab
