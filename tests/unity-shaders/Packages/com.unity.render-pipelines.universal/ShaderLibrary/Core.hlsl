// Stand-in for URP's ShaderLibrary/Core.hlsl: core Common.hlsl, URP's Input.hlsl matrices
// (UNITY_MATRIX_M is unity_ObjectToWorld, UNITY_MATRIX_VP unity_MatrixVP) and core
// SpaceTransforms.hlsl. Source: Unity-Technologies/Graphics, Packages/com.unity.render-pipelines.universal/
// ShaderLibrary/Core.hlsl and Input.hlsl.
#ifndef UNIVERSAL_PIPELINE_CORE_INCLUDED
#define UNIVERSAL_PIPELINE_CORE_INCLUDED
#include "Packages/com.unity.render-pipelines.core/ShaderLibrary/Common.hlsl"
cbuffer UnityPerDraw
{
    float4x4 unity_ObjectToWorld;
    float4x4 unity_WorldToObject;
    half4 unity_SHAr, unity_SHAg, unity_SHAb;
};
float4x4 unity_MatrixVP;
float4 _MainLightPosition;
half4 _MainLightColor;
#define UNITY_MATRIX_M unity_ObjectToWorld
#define UNITY_MATRIX_I_M unity_WorldToObject
#define UNITY_MATRIX_VP unity_MatrixVP
#include "Packages/com.unity.render-pipelines.core/ShaderLibrary/SpaceTransforms.hlsl"
#endif
