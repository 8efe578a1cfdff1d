// Stand-in for the built-in pipeline's UnityCG.cginc (and what it includes): only what
// bindings/unity/Components/Shaders uses, each declared as Unity declares it.
// Source: Unity's built-in shaders, CGIncludes/ (mirror chsxf/unity-built-in-shaders, branch 2021.3).
#ifndef UNITY_CG_INCLUDED
#define UNITY_CG_INCLUDED

// HLSLSupport.cginc: fixed-precision types are half on HLSL compilers.
#define fixed half
#define fixed3 half3
#define fixed4 half4

// UnityShaderVariables.cginc: UnityPerDraw, UnityPerFrame and UnityLighting values.
float4x4 unity_ObjectToWorld;
float4x4 unity_WorldToObject;
float4x4 unity_MatrixVP;
float4 _WorldSpaceLightPos0;
half4 unity_SHAr, unity_SHAg, unity_SHAb;
half4 unity_SHBr, unity_SHBg, unity_SHBb;
half4 unity_SHC;

// UnityShaderUtilities.cginc:46  inline float4 UnityObjectToClipPos(in float3 pos)
inline float4 UnityObjectToClipPos(in float3 pos)
{
    return mul(unity_MatrixVP, mul(unity_ObjectToWorld, float4(pos, 1.0)));
}

// UnityCG.cginc:179  inline float3 UnityObjectToWorldNormal(in float3 norm)
inline float3 UnityObjectToWorldNormal(in float3 norm)
{
    return normalize(mul(norm, (float3x3)unity_WorldToObject));
}

// UnityCG.cginc:361  half3 ShadeSH9(half4 normal): L0 + L1 + L2 of the ambient probe.
half3 ShadeSH9(half4 normal)
{
    half3 x;
    x.r = dot(unity_SHAr, normal);
    x.g = dot(unity_SHAg, normal);
    x.b = dot(unity_SHAb, normal);
    half4 vB = normal.xyzz * normal.yzzx;
    x.r += dot(unity_SHBr, vB);
    x.g += dot(unity_SHBg, vB);
    x.b += dot(unity_SHBb, vB);
    x += unity_SHC.rgb * (normal.x * normal.x - normal.y * normal.y);
    return x;
}

#endif
