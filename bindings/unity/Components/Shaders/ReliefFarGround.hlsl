// The far ground's vertex lift and colour, shared by every pipeline's pass (ReliefFarGround
// .shader): plain HLSL, no pipeline include. Runtime/FarLift.cs is its CPU twin, line for line,
// and the tests hold the mesh to that: where rings meet, no cracks.
#ifndef RELIEF_FAR_GROUND_INCLUDED
#define RELIEF_FAR_GROUND_INCLUDED

// Levels are relief's storage as it is: 32-bit float, toroidal. GLES3, WebGL 2 and many mobile
// GPUs cannot filter that format, but every GPU can fetch a texel by index, so the four texels
// are fetched (Load) and blended here.
Texture2D<float4> _Level0, _Level1, _Level2, _Level3, _Level4, _Level5, _Level6, _Level7;
float _LevelCount;
// Per level: window corner (x, z) relative to the mesh, metres per cell, cells a side.
float4 _LevelWindows[8];
// Per level: the texel holding the window's first cell (x, z).
float4 _LevelPhases[8];
// Ring 0's quad (metres) and quads from the mesh's centre to any ring's outer edge.
float _RingQuad, _RingHalf;
// The mesh's centre in plane coordinates (metres from the plane's origin).
float4 _GridOffset;
// The plane the levels lie on; on a planet plane point p is the ground under
// normalize(radius·up + p.x·x + p.y·z), and the mesh sits at radius·up.
float4 _PlaneX, _PlaneUp, _PlaneZ;
float _PlanetRadius;
float _SeaLevel, _HighAt, _Sink, _HideWithin;
float4 _SeaColor, _LowColor, _HighColor;

float reliefLoad(int k, int2 t)
{
    int3 at = int3(t, 0);
    if (k == 0) return _Level0.Load(at).r;
    if (k == 1) return _Level1.Load(at).r;
    if (k == 2) return _Level2.Load(at).r;
    if (k == 3) return _Level3.Load(at).r;
    if (k == 4) return _Level4.Load(at).r;
    if (k == 5) return _Level5.Load(at).r;
    if (k == 6) return _Level6.Load(at).r;
    return _Level7.Load(at).r;
}

// Toward its outer edge a ring's odd vertices slide onto the coarser ring's lattice (two of its
// quads apart): on the edge they sit on it, so the T-junctions where rings meet close up.
float2 reliefMorph(float2 q, float ring)
{
    if (ring >= _LevelCount - 1.0)
        return q; // the outermost ring meets nothing coarser
    // Ring k's quad is ring 0's times 2^k, exact in floats, as FarRings builds the mesh.
    float quad = _RingQuad * (float)(1u << (uint)ring);
    float d = max(abs(q.x), abs(q.y)) / (quad * _RingHalf);
    float m = saturate((d - 0.75) / 0.2);
    float2 n = round(q / quad);
    float2 odd = n - 2.0 * floor(n * 0.5);
    // On the edge (n - 1)·quad: the very product FarRings makes the coarser ring's vertex
    // from, so the two land on the same float whatever the spacing.
    return (n - odd * m) * quad;
}

// The finest level whose window holds q with two cells to spare (the bilinear footprint and
// the normal's neighbours).
int reliefLevelAt(float2 q)
{
    int count = (int)_LevelCount;
    for (int k = 0; k < 8; k++)
    {
        if (k >= count)
            break;
        float4 w = _LevelWindows[k];
        float2 p = q - w.xy;
        float lo = 2.0 * w.z, hi = w.z * (w.w - 2.0);
        if (p.x >= lo && p.y >= lo && p.x < hi && p.y < hi)
            return k;
    }
    return count - 1;
}

// Bilinear between the four texels around q; texel i's centre is half a cell into cell i.
float reliefHeight(float2 q, int k)
{
    float4 w = _LevelWindows[k];
    int size = (int)w.w;
    float2 t = (q - w.xy) / w.z - 0.5 + _LevelPhases[k].xy;
    float2 f0 = floor(t);
    float2 f = t - f0;
    int2 i0 = (((int2)f0 % size) + size) % size;
    int2 i1 = (i0 + 1) % size;
    float a = reliefLoad(k, int2(i0.x, i0.y)), b = reliefLoad(k, int2(i1.x, i0.y));
    float c = reliefLoad(k, int2(i0.x, i1.y)), d = reliefLoad(k, int2(i1.x, i1.y));
    return lerp(lerp(a, b, f.x), lerp(c, d, f.x), f.y);
}

struct ReliefVertex
{
    float3 position;  // object space
    float3 normal;    // object space
    float height;     // metres above the datum
    float fromCentre; // metres from the mesh's centre, on the plane
};

// A mesh vertex (x, ring, z) lifted onto the ground.
ReliefVertex reliefLift(float3 vertex)
{
    ReliefVertex o;
    float2 q = reliefMorph(vertex.xz, vertex.y);
    int k = reliefLevelAt(q);
    float s = _LevelWindows[k].z;
    float h = reliefHeight(q, k);
    float dx = reliefHeight(q + float2(s, 0), k) - reliefHeight(q - float2(s, 0), k);
    float dz = reliefHeight(q + float2(0, s), k) - reliefHeight(q - float2(0, s), k);
    float3 n = normalize(float3(-dx, 2.0 * s, -dz));
    float lifted = h - _Sink;
    if (_PlanetRadius > 0)
    {
        // dir·(R + h) − R·up without subtracting two numbers of the planet's size: with
        // g = p.x·x + p.y·z and |v| = sqrt(R² + |p|²), it is
        // (R + h)/|v|·g + up·R·(h − |p|²/(|v| + R))/|v|.
        float2 p = q + _GridOffset.xy;
        float R = _PlanetRadius;
        float p2 = dot(p, p);
        float len = sqrt(R * R + p2);
        float3 g = p.x * _PlaneX.xyz + p.y * _PlaneZ.xyz;
        o.position = (R + lifted) / len * g + _PlaneUp.xyz * (R * (lifted - p2 / (len + R)) / len);
        float3 dir = normalize(R * _PlaneUp.xyz + g);
        o.normal = normalize(n.x * _PlaneX.xyz + n.y * dir + n.z * _PlaneZ.xyz);
    }
    else
    {
        o.position = float3(q.x, lifted, q.y);
        o.normal = n;
    }
    o.height = h;
    o.fromCentre = length(q);
    return o;
}

// Sea below sea level; lowland turning to highland with height above it.
float3 reliefAlbedo(float height)
{
    float3 land = lerp(_LowColor.rgb, _HighColor.rgb, smoothstep(0.0, _HighAt, height - _SeaLevel));
    return height < _SeaLevel ? _SeaColor.rgb : land;
}

#endif
