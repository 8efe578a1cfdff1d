// Far ground from relief's levels (clipmap levels on a flat world, LOD rings on a planet):
// FarGroundMesh sets every property below except the colours, sink and hide distance. Built-in
// render pipeline; URP/HDRP projects need a port of the vertex function (it is the whole trick).
Shader "Relief/FarGround"
{
    Properties
    {
        _SeaLevel ("Sea level (m)", Float) = 0
        _SeaColor ("Sea", Color) = (0.10, 0.22, 0.35, 1)
        _LowColor ("Lowland", Color) = (0.28, 0.42, 0.20, 1)
        _HighColor ("Highland", Color) = (0.55, 0.52, 0.48, 1)
        _HighAt ("Highland from (m above sea)", Float) = 600
        _Sink ("Sink below streamed ground (m)", Float) = 0
        _HideWithin ("Hide within (m of the grid centre)", Float) = 0
        [HideInInspector] _Level0 ("", 2D) = "black" {}
        [HideInInspector] _Level1 ("", 2D) = "black" {}
        [HideInInspector] _Level2 ("", 2D) = "black" {}
        [HideInInspector] _Level3 ("", 2D) = "black" {}
        [HideInInspector] _Level4 ("", 2D) = "black" {}
        [HideInInspector] _Level5 ("", 2D) = "black" {}
        [HideInInspector] _Level6 ("", 2D) = "black" {}
        [HideInInspector] _Level7 ("", 2D) = "black" {}
        [HideInInspector] _LevelCount ("", Float) = 6
        [HideInInspector] _PlanetRadius ("", Float) = 0
    }
    SubShader
    {
        Tags { "RenderType" = "Opaque" "Queue" = "Geometry" }
        Pass
        {
            Tags { "LightMode" = "ForwardBase" }
            Cull Off
            CGPROGRAM
            #pragma vertex vert
            #pragma fragment frag
            #pragma target 3.5
            #include "UnityCG.cginc"
            #include "Lighting.cginc"

            sampler2D _Level0, _Level1, _Level2, _Level3, _Level4, _Level5, _Level6, _Level7;
            float _LevelCount;
            // Per level: window corner (x, z) relative to the grid centre, spacing, cells a side.
            float4 _LevelWindows[8];
            // Per level: where the window's first cell sits in the repeat-wrapped texture (0…1).
            float4 _LevelPhases[8];
            // The grid centre in plane coordinates (metres from the plane's origin).
            float4 _GridOffset;
            // The plane the levels lie on; on a planet plane point p is the ground under
            // normalize(radius·up + p.x·x + p.y·z), and the mesh sits at radius·up.
            float4 _PlaneX, _PlaneUp, _PlaneZ;
            float _PlanetRadius;
            float _SeaLevel, _HighAt, _Sink, _HideWithin;
            float4 _SeaColor, _LowColor, _HighColor;

            struct appdata { float4 vertex : POSITION; };
            struct v2f
            {
                float4 pos : SV_POSITION;
                float3 normal : TEXCOORD0;
                float height : TEXCOORD1;
                float fromCentre : TEXCOORD2;
            };

            float sampleLevel(int k, float2 uv)
            {
                float4 t = float4(uv, 0, 0);
                if (k == 0) return tex2Dlod(_Level0, t).r;
                if (k == 1) return tex2Dlod(_Level1, t).r;
                if (k == 2) return tex2Dlod(_Level2, t).r;
                if (k == 3) return tex2Dlod(_Level3, t).r;
                if (k == 4) return tex2Dlod(_Level4, t).r;
                if (k == 5) return tex2Dlod(_Level5, t).r;
                if (k == 6) return tex2Dlod(_Level6, t).r;
                return tex2Dlod(_Level7, t).r;
            }

            // The finest level whose window holds q (relative to the grid centre) with a cell
            // to spare for the bilinear footprint.
            int levelAt(float2 q)
            {
                int count = (int)_LevelCount;
                for (int k = 0; k < 8; k++)
                {
                    if (k >= count) break;
                    float4 w = _LevelWindows[k];
                    float2 lo = w.xy + w.z;
                    float2 hi = w.xy + w.z * (w.w - 1.0);
                    if (all(q >= lo) && all(q < hi)) return k;
                }
                return count - 1;
            }

            // Cell i holds the mean over [i·s, (i+1)·s); its texel centre sits half a cell in.
            float heightAt(float2 q, int k)
            {
                float4 w = _LevelWindows[k];
                float2 uv = (q - w.xy) / (w.z * w.w) + _LevelPhases[k].xy;
                return sampleLevel(k, uv);
            }

            v2f vert(appdata v)
            {
                v2f o;
                float2 q = v.vertex.xz;
                int k = levelAt(q);
                float s = _LevelWindows[k].z;
                float h = heightAt(q, k);
                float dx = heightAt(q + float2(s, 0), k) - heightAt(q - float2(s, 0), k);
                float dz = heightAt(q + float2(0, s), k) - heightAt(q - float2(0, s), k);
                float3 n = normalize(float3(-dx, 2.0 * s, -dz));
                float3 local;
                float3 normal;
                float lifted = h - _Sink;
                if (_PlanetRadius > 0)
                {
                    // dir·(R + h) − R·up without subtracting two numbers of the planet's size:
                    // with g = p.x·x + p.y·z and |v| = sqrt(R² + |p|²), it is
                    // (R + h)/|v|·g + up·R·(h − |p|²/(|v| + R))/|v|.
                    float2 p = q + _GridOffset.xy;
                    float R = _PlanetRadius;
                    float p2 = dot(p, p);
                    float len = sqrt(R * R + p2);
                    float3 g = p.x * _PlaneX.xyz + p.y * _PlaneZ.xyz;
                    local = (R + lifted) / len * g + _PlaneUp.xyz * (R * (lifted - p2 / (len + R)) / len);
                    float3 dir = normalize(R * _PlaneUp.xyz + g);
                    normal = normalize(n.x * _PlaneX.xyz + n.y * dir + n.z * _PlaneZ.xyz);
                }
                else
                {
                    local = float3(q.x, lifted, q.y);
                    normal = n;
                }
                o.pos = UnityObjectToClipPos(float4(local, 1));
                o.normal = UnityObjectToWorldNormal(normal);
                o.height = h;
                o.fromCentre = length(q);
                return o;
            }

            float4 frag(v2f i) : SV_Target
            {
                if (i.fromCentre < _HideWithin) discard;
                float3 land = lerp(_LowColor.rgb, _HighColor.rgb, smoothstep(0.0, _HighAt, i.height - _SeaLevel));
                float3 albedo = i.height < _SeaLevel ? _SeaColor.rgb : land;
                float light = saturate(dot(normalize(i.normal), normalize(_WorldSpaceLightPos0.xyz)));
                float3 c = albedo * (_LightColor0.rgb * light + ShadeSH9(float4(normalize(i.normal), 1)));
                return float4(c, 1);
            }
            ENDCG
        }
    }
    Fallback Off
}
