using System;

namespace Relief
{
    /// <summary>A collision chunk (<see cref="ChunkView"/>) as the
    /// vertices and triangles of a Unity mesh for a <c>MeshCollider</c>, and where to put it —
    /// computed without the engine, so the arrays are built (and <c>Physics.BakeMesh</c> can
    /// run) off the main thread.
    ///
    /// Coordinates: relief's (x, y, z) are Unity's (x, y, z) — Y up, rows of a map along +Z.
    /// The mesh lies in the chunk's frame, relative to its centre: vertex (i, j) is
    /// (corner_x − centre_x + i·spacing, height, corner_z − centre_z + j·spacing), and the
    /// GameObject goes at <c>origin + centre_x·axis_x + centre_z·axis_z</c> with the rotation
    /// taking X, Y, Z to axis_x, up, axis_z (the identity on a flat world; the tangent frame on
    /// a planet). Triangles wind clockwise seen from above (+up), Unity's front face, so
    /// single-sided raycasts hit the ground from above; each cell is split along its
    /// (i+1, j)–(i, j+1) diagonal, as Godot's HeightMapShape3D splits it. A cell with a hole (a
    /// NaN corner) has no triangles.</summary>
    public static class ChunkMeshes
    {
        /// <summary>Vertices a chunk of <paramref name="samples"/> per side needs (samples²; 3
        /// floats each).</summary>
        public static int VertexCount(int samples) { return samples * samples; }

        /// <summary>Indices its triangles need at most (6 per cell).</summary>
        public static int MaxIndexCount(int samples) { return 6 * (samples - 1) * (samples - 1); }

        /// <summary>Fills <paramref name="vertices"/> (3 · samples² floats: x, y, z per vertex,
        /// row j-major, i fastest) and <paramref name="indices"/> (at least
        /// <see cref="MaxIndexCount"/>) for a chunk's <paramref name="heights"/>. Returns the
        /// indices written (fewer where there are holes). A hole's vertex gets height 0; no
        /// triangle uses it.</summary>
        public static int Build(ReadOnlySpan<float> heights, int samples, double spacing,
            double cornerX, double cornerZ, double centreX, double centreZ,
            Span<float> vertices, Span<int> indices)
        {
            if (samples < 2)
                throw new ArgumentOutOfRangeException(nameof(samples), samples, "a chunk has at least 2 samples a side");
            if (heights.Length != samples * samples)
                throw new ArgumentException($"heights must hold {samples}² values, not {heights.Length}", nameof(heights));
            if (vertices.Length < 3 * samples * samples)
                throw new ArgumentException($"vertices must hold {3 * samples * samples} floats", nameof(vertices));
            if (indices.Length < MaxIndexCount(samples))
                throw new ArgumentException($"indices must hold {MaxIndexCount(samples)} ints", nameof(indices));
            double x0 = cornerX - centreX, z0 = cornerZ - centreZ;
            for (int j = 0; j < samples; j++)
                for (int i = 0; i < samples; i++)
                {
                    int k = j * samples + i;
                    float h = heights[k];
                    vertices[3 * k] = (float)(x0 + i * spacing);
                    vertices[3 * k + 1] = float.IsNaN(h) ? 0f : h;
                    vertices[3 * k + 2] = (float)(z0 + j * spacing);
                }
            int n = 0;
            for (int j = 0; j + 1 < samples; j++)
                for (int i = 0; i + 1 < samples; i++)
                {
                    int a = j * samples + i, b = a + 1, c = a + samples, d = c + 1;
                    if (float.IsNaN(heights[a]) || float.IsNaN(heights[b]) || float.IsNaN(heights[c]) || float.IsNaN(heights[d]))
                        continue;
                    // a (i, j), b (i+1, j), c (i, j+1), d (i+1, j+1): clockwise from above.
                    indices[n++] = a; indices[n++] = c; indices[n++] = b;
                    indices[n++] = b; indices[n++] = c; indices[n++] = d;
                }
            return n;
        }

        /// <summary>Where the chunk's mesh goes: <paramref name="position"/> (3 doubles, the
        /// planet's or world's frame — subtract a floating origin before giving it to Unity)
        /// and <paramref name="rotation"/> (x, y, z, w: a Unity <c>Quaternion</c>) taking the
        /// mesh's X, Y, Z to <paramref name="axisX"/>, <paramref name="up"/>,
        /// <paramref name="axisZ"/>.</summary>
        public static void Placement(ReadOnlySpan<double> origin, ReadOnlySpan<double> axisX,
            ReadOnlySpan<double> up, ReadOnlySpan<double> axisZ, double centreX, double centreZ,
            Span<double> position, Span<double> rotation)
        {
            for (int c = 0; c < 3; c++)
                position[c] = origin[c] + centreX * axisX[c] + centreZ * axisZ[c];
            // The rotation matrix has the axes as columns; the usual matrix → quaternion,
            // branching on the largest diagonal term for precision.
            double m00 = axisX[0], m01 = up[0], m02 = axisZ[0];
            double m10 = axisX[1], m11 = up[1], m12 = axisZ[1];
            double m20 = axisX[2], m21 = up[2], m22 = axisZ[2];
            double trace = m00 + m11 + m22, x, y, z, w;
            if (trace > 0)
            {
                double s = Math.Sqrt(trace + 1.0) * 2;
                w = 0.25 * s; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
            }
            else if (m00 > m11 && m00 > m22)
            {
                double s = Math.Sqrt(1.0 + m00 - m11 - m22) * 2;
                w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
            }
            else if (m11 > m22)
            {
                double s = Math.Sqrt(1.0 + m11 - m00 - m22) * 2;
                w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
            }
            else
            {
                double s = Math.Sqrt(1.0 + m22 - m00 - m11) * 2;
                w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
            }
            double len = Math.Sqrt(x * x + y * y + z * z + w * w);
            rotation[0] = x / len; rotation[1] = y / len; rotation[2] = z / len; rotation[3] = w / len;
        }

        /// <summary><paramref name="v"/> rotated by the quaternion <paramref name="q"/> (x, y,
        /// z, w), as Unity's <c>q * v</c> computes it.</summary>
        public static void Rotate(ReadOnlySpan<double> q, ReadOnlySpan<double> v, Span<double> result)
        {
            double qx = q[0], qy = q[1], qz = q[2], qw = q[3];
            // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
            double tx = 2 * (qy * v[2] - qz * v[1]), ty = 2 * (qz * v[0] - qx * v[2]), tz = 2 * (qx * v[1] - qy * v[0]);
            result[0] = v[0] + qw * tx + (qy * tz - qz * ty);
            result[1] = v[1] + qw * ty + (qz * tx - qx * tz);
            result[2] = v[2] + qw * tz + (qx * ty - qy * tx);
        }
    }
}
