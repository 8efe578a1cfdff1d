// Far ground from relief's levels (clipmap levels on a flat world, LOD rings on a planet), in
// every render pipeline: HDRP, URP, then the built-in pipeline (Unity takes the first SubShader
// the active pipeline accepts; the SRP ones are skipped where their package is not installed).
// The lift and colour are shared (ReliefFarGround.hlsl); each pass only transforms and lights.
// FarGroundMesh sets every property below except the colours, sink and hide distance.
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
        [HideInInspector] _RingQuad ("", Float) = 1
        [HideInInspector] _RingHalf ("", Float) = 32
        [HideInInspector] _PlanetRadius ("", Float) = 0
    }

    // HDRP: lit by the first directional light and the ambient probe, exposed as HDRP's own
    // passes are (its lights are in physical units). The depth pass puts the ground in the depth
    // prepass; it writes no normals, so screen-space effects see stale normals there.
    SubShader
    {
        PackageRequirements { "com.unity.render-pipelines.high-definition" }
        Tags { "RenderPipeline" = "HDRenderPipeline" "RenderType" = "Opaque" "Queue" = "Geometry" }
        Pass
        {
            Name "ForwardOnly"
            Tags { "LightMode" = "ForwardOnly" }
            Cull Off
            HLSLPROGRAM
            #pragma target 4.5
            #pragma only_renderers d3d11 vulkan metal
            #pragma vertex vert
            #pragma fragment frag
            #include "Packages/com.unity.render-pipelines.core/ShaderLibrary/Common.hlsl"
            #include "Packages/com.unity.render-pipelines.high-definition/Runtime/ShaderLibrary/ShaderVariables.hlsl"
            #include "Packages/com.unity.render-pipelines.core/ShaderLibrary/AmbientProbe.hlsl"
            #include "ReliefFarGround.hlsl"

            struct v2f
            {
                float4 pos : SV_POSITION;
                float3 normal : TEXCOORD0;
                float height : TEXCOORD1;
                float fromCentre : TEXCOORD2;
            };

            v2f vert(float3 vertex : POSITION)
            {
                ReliefVertex g = reliefLift(vertex);
                v2f o;
                o.pos = TransformObjectToHClip(g.position);
                o.normal = TransformObjectToWorldNormal(g.normal);
                o.height = g.height;
                o.fromCentre = g.fromCentre;
                return o;
            }

            float4 frag(v2f i) : SV_Target
            {
                if (i.fromCentre < _HideWithin) discard;
                float3 n = normalize(i.normal);
                float3 light = EvaluateAmbientProbe(n);
                if (_DirectionalLightCount > 0)
                {
                    DirectionalLightData sun = _DirectionalLightDatas[0];
                    light += sun.color * saturate(dot(n, -sun.forward)) / PI;
                }
                return float4(reliefAlbedo(i.height) * light * GetCurrentExposureMultiplier(), 1);
            }
            ENDHLSL
        }
        Pass
        {
            Name "DepthForwardOnly"
            Tags { "LightMode" = "DepthForwardOnly" }
            Cull Off
            ColorMask 0
            HLSLPROGRAM
            #pragma target 4.5
            #pragma only_renderers d3d11 vulkan metal
            #pragma vertex vert
            #pragma fragment frag
            #include "Packages/com.unity.render-pipelines.core/ShaderLibrary/Common.hlsl"
            #include "Packages/com.unity.render-pipelines.high-definition/Runtime/ShaderLibrary/ShaderVariables.hlsl"
            #include "ReliefFarGround.hlsl"

            struct v2f
            {
                float4 pos : SV_POSITION;
                float fromCentre : TEXCOORD0;
            };

            v2f vert(float3 vertex : POSITION)
            {
                ReliefVertex g = reliefLift(vertex);
                v2f o;
                o.pos = TransformObjectToHClip(g.position);
                o.fromCentre = g.fromCentre;
                return o;
            }

            float4 frag(v2f i) : SV_Target
            {
                if (i.fromCentre < _HideWithin) discard;
                return 0;
            }
            ENDHLSL
        }
    }

    // URP: lit by the main light and the ambient probe, in the forward and the deferred path
    // alike (UniversalForwardOnly). The DepthOnly pass keeps the ground visible with Depth
    // Priming on (URP draws opaques with depth-equal then) and writes depth as colour too, as
    // URP's own do, for a depth prepass into a colour target.
    SubShader
    {
        PackageRequirements { "com.unity.render-pipelines.universal" }
        Tags { "RenderPipeline" = "UniversalPipeline" "RenderType" = "Opaque" "Queue" = "Geometry" }
        Pass
        {
            Name "UniversalForwardOnly"
            Tags { "LightMode" = "UniversalForwardOnly" }
            Cull Off
            HLSLPROGRAM
            #pragma target 3.5
            #pragma vertex vert
            #pragma fragment frag
            #include "Packages/com.unity.render-pipelines.universal/ShaderLibrary/Core.hlsl"
            #include "Packages/com.unity.render-pipelines.universal/ShaderLibrary/Lighting.hlsl"
            #include "ReliefFarGround.hlsl"

            struct v2f
            {
                float4 pos : SV_POSITION;
                float3 normal : TEXCOORD0;
                float height : TEXCOORD1;
                float fromCentre : TEXCOORD2;
            };

            v2f vert(float3 vertex : POSITION)
            {
                ReliefVertex g = reliefLift(vertex);
                v2f o;
                o.pos = TransformObjectToHClip(g.position);
                o.normal = TransformObjectToWorldNormal(g.normal);
                o.height = g.height;
                o.fromCentre = g.fromCentre;
                return o;
            }

            float4 frag(v2f i) : SV_Target
            {
                if (i.fromCentre < _HideWithin) discard;
                float3 n = normalize(i.normal);
                Light sun = GetMainLight();
                float3 light = sun.color * saturate(dot(n, sun.direction)) * sun.distanceAttenuation + SampleSH(n);
                return float4(reliefAlbedo(i.height) * light, 1);
            }
            ENDHLSL
        }
        Pass
        {
            Name "DepthOnly"
            Tags { "LightMode" = "DepthOnly" }
            Cull Off
            ColorMask R
            HLSLPROGRAM
            #pragma target 3.5
            #pragma vertex vert
            #pragma fragment frag
            #include "Packages/com.unity.render-pipelines.universal/ShaderLibrary/Core.hlsl"
            #include "ReliefFarGround.hlsl"

            struct v2f
            {
                float4 pos : SV_POSITION;
                float fromCentre : TEXCOORD0;
            };

            v2f vert(float3 vertex : POSITION)
            {
                ReliefVertex g = reliefLift(vertex);
                v2f o;
                o.pos = TransformObjectToHClip(g.position);
                o.fromCentre = g.fromCentre;
                return o;
            }

            float4 frag(v2f i) : SV_Target
            {
                if (i.fromCentre < _HideWithin) discard;
                return i.pos.z;
            }
            ENDHLSL
        }
    }

    // The built-in pipeline: the main directional light and the ambient SH.
    SubShader
    {
        Tags { "RenderType" = "Opaque" "Queue" = "Geometry" }
        Pass
        {
            Tags { "LightMode" = "ForwardBase" }
            Cull Off
            HLSLPROGRAM
            #pragma target 3.5
            #pragma vertex vert
            #pragma fragment frag
            #include "UnityCG.cginc"
            #include "Lighting.cginc"
            #include "ReliefFarGround.hlsl"

            struct v2f
            {
                float4 pos : SV_POSITION;
                float3 normal : TEXCOORD0;
                float height : TEXCOORD1;
                float fromCentre : TEXCOORD2;
            };

            v2f vert(float3 vertex : POSITION)
            {
                ReliefVertex g = reliefLift(vertex);
                v2f o;
                o.pos = UnityObjectToClipPos(g.position);
                o.normal = UnityObjectToWorldNormal(g.normal);
                o.height = g.height;
                o.fromCentre = g.fromCentre;
                return o;
            }

            float4 frag(v2f i) : SV_Target
            {
                if (i.fromCentre < _HideWithin) discard;
                float3 n = normalize(i.normal);
                float direct = saturate(dot(n, normalize(_WorldSpaceLightPos0.xyz)));
                float3 c = reliefAlbedo(i.height) * (_LightColor0.rgb * direct + ShadeSH9(float4(n, 1)));
                return float4(c, 1);
            }
            ENDHLSL
        }
    }
    Fallback Off
}
