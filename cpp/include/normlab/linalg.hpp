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

// The inner loops of the generic ops, here so that they are compiled for
// speed (-O3, vectorized) while the rest of the module is compiled for size.

/// sum a[i] * b[i] in double (each float product is exact in double).
double dot(const float* a, const float* b, std::size_t n);
/// sum a[i] * b[i] with a in double.
double dot(const double* a, const float* b, std::size_t n);
/// y[i] += s * x[i].
void axpy(double s, const float* x, double* y, std::size_t n);
/// acc[i] += x[i]^2.
void add_squares(const float* x, double* acc, std::size_t n);

/// Population covariance [f, f] (row-major) of the rows of x [n, f] around
/// `center`: each row centered once, the upper triangle summed, then mirrored.
std::vector<double> covariance_of(const float* x, std::size_t n, std::size_t f, const std::vector<double>& center);

}  // namespace normlab
